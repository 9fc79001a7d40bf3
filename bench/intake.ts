/**
 * `npm run bench -- intake`: GitHub requests for one issue's intake (a maintainer adds
 * `bosun:ready`; the app's tick reads the approval, records it on the claim ref, posts the
 * snapshot and mirrors `bosun:queued`), counted by the fake GitHub's
 * accounting. Target (DESIGN.md): at most 5 requests, at most 2 content-creating. The pool has no
 * room (size 0), so what is counted is the intake alone, not a grant and its dispatch.
 *
 * The first tick in a repository also pays one-time costs that the app caches per process and
 * repository: the app's identity (`GET /app`), the installation token, the configuration read
 * (revalidated at most once a minute, then as a free 304), the dashboard (created and pinned) and
 * the label bootstrap after the first tick (list + create the missing labels). Those are reported
 * apart as `one_time_requests`. `by_kind` splits the warm intake's requests by route.
 */
import { formBody, OWNER_REPO, startHarness, type Harness } from "../test/integration/app/app-harness.js";

const CONFIG = "pools:\n  default: {size: 0, dispatch: {kind: comment}}\n";

interface Figures {
  requests: number;
  content_creating: number;
  reads: number;
  writes: number;
  not_modified: number;
  routes: string[];
  by_route: Record<string, number>;
}

async function intakeOf(h: Harness, n: number): Promise<Figures> {
  const since = h.logPosition();
  await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
  await h.fake.webhooks.flush();
  const mine = h.fake.accounting.log.filter((e) => e.seq > since && e.login === "bosun[bot]");
  if (!h.labelsOf(n).includes("bosun:queued")) throw new Error(`issue #${n} was not queued`);
  return {
    requests: mine.length,
    content_creating: mine.filter((e) => e.kind === "create").length,
    reads: mine.filter((e) => e.method === "GET" && e.status !== 304).length,
    writes: mine.filter((e) => e.method !== "GET").length,
    not_modified: mine.filter((e) => e.status === 304).length,
    routes: mine.map((e) => `${e.route ?? e.path} ${e.status}`),
    by_route: mine.reduce<Record<string, number>>((acc, e) => ({ ...acc, [e.route ?? e.path]: (acc[e.route ?? e.path] ?? 0) + 1 }), {}),
  };
}

const h = await startHarness({ config: CONFIG, configMaxAgeMs: 60_000 });
try {
  const cold = await intakeOf(h, h.issue(formBody()));
  const fresh = await intakeOf(h, h.issue(formBody()));
  // The usual case: people discussed the issue before approving it, so its comments must be read.
  const discussed = h.issue(formBody());
  await h.as("triager").issues.createComment({ ...OWNER_REPO, issue_number: discussed, body: "Looks good to me." });
  const warm = await intakeOf(h, discussed);
  console.log(`cold (first issue in the repository): ${cold.requests} requests\n  ${cold.routes.join("\n  ")}`);
  console.log(`warm, issue without comments: ${fresh.requests} requests\n  ${fresh.routes.join("\n  ")}`);
  console.log(`warm, issue with a comment: ${warm.requests} requests\n  ${warm.routes.join("\n  ")}`);
  console.log(
    JSON.stringify({
      requests: warm.requests,
      content_creating: warm.content_creating,
      reads: warm.reads,
      writes: warm.writes,
      not_modified: warm.not_modified,
      requests_without_comments: fresh.requests,
      one_time_requests: cold.requests - fresh.requests,
      one_time_content_creating: cold.content_creating - fresh.content_creating,
      by_route: warm.by_route,
    }),
  );
} finally {
  await h.close();
}
