/**
 * `npm run bench -- api-economy-app`: the independent count of issue 24 ("an independent count with
 * three replicas agrees within 20%"). Where `api-economy` drives `RepoTicker`s by hand and reads the
 * fake's own accounting, this runs the App as shipped — `bosunApp` (src/app/app.ts), each replica on
 * its own Probot instance and server on 127.0.0.1, its timed sweep on (`BOSUN_TICK_EVERY`) — behind
 * one webhook URL that hands each delivery to exactly one replica, round robin, as a load balancer in
 * front of an App's one URL does (GitHub sends each delivery once). Every request a replica sends
 * goes through a counting proxy (test/support/counting-proxy.ts), so the count relies neither on the
 * fake's accounting nor on Bosun's code. The world of `api-economy` is played between ticks, through
 * GitHub's API so its webhooks go out: the maintainer approves every item, each work run the App
 * dispatched lands as the shipped work workflow's land job does (its pull request opened, its landing
 * recorded, the run completed), the gate posts its verdict as the App, the maintainer merges. Those
 * requests are not the App's and are not counted.
 *
 * Time: GitHub's clock (the fake's and the App's) runs ECONOMY_SPEED (2) times the wall clock, so the
 * App's real timers — the sweep every ECONOMY_TICK_S (5) s, the heard tick's jitter — are scaled to
 * it. The replicas start a third of a tick apart. At 2, 20 items take about the GitHub time the bench's
 * take (~17 s), so both count over as many sweeps; the fake answers in about a millisecond of real
 * time, so at a higher speed the same work spans more GitHub time, more sweeps, more requests per item. A warm-up (each replica's
 * first sweeps: `GET /app`, its token, labels, dashboard, setup reads) is reported on its own; the
 * per-item figures count from the first approval until every item is settled and the webhooks of
 * its last moves are answered (the ticks they set off done).
 *
 * Content-creating, as GitHub counts its secondary limit: every POST, PATCH, PUT and DELETE, and a
 * GraphQL request whose operation is a mutation ("Calculating points for the secondary rate limit":
 * https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api; "Pause between
 * mutative requests": https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api).
 * So label and assignee writes count: GitHub names the secondary limit's costly requests by method and
 * publishes no list of the endpoints that "generate content", so the method is the only rule one can
 * check. `content_creating_per_item_narrow` leaves out label, assignee and installation-token writes,
 * the narrower kind `api-economy` takes from the fake's accounting, to compare like with like.
 * ECONOMY_TRACE=1: every request on stderr.
 * Env: ECONOMY_ITEMS (20), ECONOMY_REPLICAS (3), ECONOMY_POOL (4), ECONOMY_TICK_S (5), ECONOMY_SPEED
 * (2), ECONOMY_MAX_S (100 real s for the items), ECONOMY_COMPARE (1; 0: do not run `api-economy` for the agreement). Measures; never fails a build.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { APP_DEFAULTS } from "../src/app/app-defaults.js";
import { systemClock } from "../src/adapters/local/system-clock.js";
import { MemoryJournal } from "../src/adapters/memory/memory-journal.js";
import { RepoTicker } from "../src/adapters/github/tick/repo-ticker.js";
import { parseClaimMessage } from "../src/core/claims/claim-record.js";
import { parseConfig } from "../src/core/config/parse-config.js";
import type { Clock } from "../src/core/engine/clock.js";
import { renderGateCheckMarker } from "../src/core/journal/gate-check-marker.js";
import { createFakeGitHub } from "../test/fake-github/create-fake-github.js";
import { createTestOctokit } from "../test/fake-github/test-octokit.js";
import { briefBody } from "../test/integration/scheduler/scheduler-fixture.js";
import { startAppReplica, type AppReplica } from "../test/support/app-replica.js";
import { createCountingProxy, type ProxiedRequest } from "../test/support/counting-proxy.js";
import { runItems } from "../test/support/run-items.js";
import { startWebhookFront } from "../test/support/webhook-front.js";

const num = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? "");
  return process.env[name] !== undefined && process.env[name] !== "" && Number.isFinite(value) ? value : fallback;
};
const items = num("ECONOMY_ITEMS", 20);
const replicas = Math.max(1, num("ECONOMY_REPLICAS", 3));
const poolSize = num("ECONOMY_POOL", 4);
const tickS = num("ECONOMY_TICK_S", 5);
const speed = num("ECONOMY_SPEED", 2);
const compare = num("ECONOMY_COMPARE", 1) !== 0;
const tickReal = (tickS * 1000) / speed;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const REPO = "acme/app";
const at = { owner: "acme", repo: "app" } as const;
const BOT = "bosun[bot]";
const SECRET = "economy-app-secret";
const WORKFLOW = "bosun-work.yml";
const LAND_TOKEN = "ghs_bosun_app_token_of_the_land_job";

// GitHub's time runs `speed` times the wall clock, for the fake and the App alike.
const t0 = performance.now();
const start = Date.now();
const now = (): number => start + Math.round((performance.now() - t0) * speed);
const clock: Clock = { now, sleep: (ms, signal) => systemClock.sleep(ms / speed, signal) };

// The shipped work workflow takes its items in batches (docs/workflows/bosun-work.yml); ECONOMY_BATCH=0: one run per item.
const batch = process.env["ECONOMY_BATCH"] !== "0";
const configYaml = `pools:\n  default: {size: ${poolSize}, dispatch: {kind: workflow, workflow: ${WORKFLOW}${batch ? ", batch: true" : ""}}}\nlease: 30m\n`;
const parsed = parseConfig(configYaml);
if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
const config = parsed.config;
const fake = await createFakeGitHub({ seed: 1, clock: { now } });
fake.addRepo({ fullName: REPO, files: { ".github/bosun.yml": configYaml } });
fake.addInstallation({ id: 501, appId: 42, appSlug: "bosun", repos: [REPO] });
fake.addToken("t-maintainer", "mona", { permissions: { [REPO]: "maintain" } });
// The work workflow's land job and the gate workflow act with the App's installation token.
fake.state.tokens.set(LAND_TOKEN, { kind: "bot", login: BOT, installationId: 501 });
fake.addWorkflow(REPO, { path: `.github/workflows/${WORKFLOW}`, name: "bosun work", runName: batch ? "bosun ${{ inputs.title }}" : "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
const manifest = parseYaml(readFileSync(fileURLToPath(new URL("../app.yml", import.meta.url)), "utf8")) as { default_events: string[] };

const proxy = createCountingProxy(fake.url, now);
const fleet: AppReplica[] = [];
const front = await startWebhookFront(() => fleet.map((r) => r.url), { detach: true });
const world = { maintainer: createTestOctokit(fake.url, "t-maintainer"), app: createTestOctokit(fake.url, LAND_TOKEN) };
try {
  fake.webhooks.register({ url: front.url, secret: SECRET, events: manifest.default_events });
  for (let i = 0; i < replicas; i++) {
    if (i > 0) await sleep(tickReal / replicas);
    fleet.push(await startAppReplica({ appId: 42, baseUrl: await proxy.open(`replica-${i}`), secret: SECRET, app: { holder: `replica-${i}`, now, clock, tickEveryMs: tickReal, heardJitterMs: APP_DEFAULTS.heardJitterMs / speed } }));
  }
  // Warm-up: every replica has ticked the repository (its labels made, its dashboard written) and
  // swept three times since. Sweeps are counted by the clock (one every tick): an idle sweep may
  // send no listing at all (the App reuses its installation listing), so no request marks one.
  const labelled = (i: number): boolean => proxy.log.some((e) => e.client === `replica-${i}` && e.route === "GET /repos/{owner}/{repo}/labels");
  for (let waited = 0; waited < 60 && !fleet.every((_, i) => labelled(i)); waited++) await sleep(tickReal);
  await sleep(3 * tickReal);
  const warmup = proxy.log.length;
  const deliveredBefore = front.forwarded;
  const itemsFrom = now();
  const itemsFromReal = performance.now();

  const numbers: number[] = [];
  for (let i = 0; i < items; i++) {
    const issue = fake.addIssue(REPO, { title: `Work on item-${i}`, body: briefBody(`item-${i}`), user: "tia" });
    await world.maintainer.issues.addLabels({ ...at, issue_number: issue.number, labels: [config.labels.ready] });
    numbers.push(issue.number);
  }
  const recordOf = (n: number) => {
    const ref = `refs/bosun/claims/${n}`;
    const sha = fake.repo(REPO).refs.get(ref);
    return sha === undefined ? undefined : parseClaimMessage(fake.repo(REPO).commits.get(sha)?.message ?? "", ref);
  };
  const landJob = new RepoTicker(world.app, { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", holder: "work-land", clock, journal: new MemoryJournal() });
  /** What happens between ticks that is not the App, through the API (so GitHub's webhooks go out). */
  const play = async (): Promise<void> => {
    const repo = fake.repo(REPO);
    for (const run of [...repo.workflowRuns.values()].filter((r) => r.status !== "completed")) {
      for (const it of runItems(run)) {
        const n = Number(it.item);
        const held = await landJob.heldItem(config, n, it.epoch, it.briefHash);
        if (!held.ok) continue;
        const branch = `bosun/${n}-work`;
        fake.setRef(REPO, branch, repo.refs.get("refs/heads/main") ?? "");
        fake.commit(REPO, branch, `#${n}`, { [`src/item-${n}.ts`]: "export const x = 1;\n" }, BOT);
        const pull = await world.app.pulls.create({ ...at, head: branch, base: "main", title: `#${n}`, body: `Closes #${n}` });
        await landJob.landRun(config, n, held.token, { kind: "done" }, { evidence: { command: "agent", exit: 0, lines: [] }, cost: { wall_clock_s: 60 }, pull: pull.data.number, run: run.id });
      }
      fake.completeWorkflowRun(REPO, run.id, "success");
    }
    for (const n of numbers) {
      const r = recordOf(n);
      const pull = r?.state === "review" && r.pull !== undefined ? repo.pulls.get(r.pull) : undefined;
      if (r === undefined || pull === undefined || pull.merged) continue;
      if (![...repo.checkRuns.values()].some((c) => c.headSha === pull.headSha && c.name === "bosun/gate")) {
        const marker = renderGateCheckMarker({ v: 1, item: String(n), brief: r.briefHash ?? null, verdict: "pass", sha: pull.headSha });
        await world.app.checks.create({ ...at, name: "bosun/gate", head_sha: pull.headSha, status: "completed", conclusion: "success", output: { title: "pass", summary: `${marker}\npass` } });
      } else await world.maintainer.pulls.merge({ ...at, pull_number: pull.number });
    }
  };
  const deadline = performance.now() + num("ECONOMY_MAX_S", 100) * 1000;
  const settled = (): boolean => numbers.every((n) => recordOf(n)?.state === "settled");
  while (!settled() && performance.now() < deadline) {
    await sleep(tickReal / replicas);
    await play();
  }
  const done = numbers.filter((n) => recordOf(n)?.state === "settled" && recordOf(n)?.outcome?.ok === true).length;
  const gitHubSeconds = (now() - itemsFrom) / 1000;
  // The items' last webhooks answered (each replica's tick they set off done): their requests are the items'.
  await fake.webhooks.flush();
  await front.idle();
  const itemsEnd = proxy.log.length;
  const delivered = front.forwarded - deliveredBefore;

  const itemsRealMs = performance.now() - itemsFromReal;
  // Idle: nothing changes; six sweeps of each replica. Long enough first for a busy tick's retry
  // (5 to 7.5 real s in register-scheduler.ts) to have come.
  await sleep(Math.max(3 * tickReal, 8000));
  const idleFrom = proxy.log.length;
  const IDLE_SWEEPS = 6;
  await sleep(IDLE_SWEEPS * tickReal);
  const idle = proxy.log.slice(idleFrom);

  const phase = proxy.log.slice(warmup, itemsEnd);
  if (process.env["ECONOMY_TRACE"] === "1") for (const e of proxy.log) console.error(`${((e.at - start) / 1000).toFixed(1).padStart(6)}s ${e.client} ${e.status} ${e.route}${e.route.includes("{") ? ` ${e.path.split("?")[0]}` : ""}`);
  const narrowOut = (e: ProxiedRequest): boolean => /\/labels|\/assignees|\/access_tokens$/.test(e.route);
  const count = (log: readonly ProxiedRequest[]) => ({
    total: log.length,
    non304: log.filter((e) => e.status !== 304).length,
    creating: log.filter((e) => e.mutative).length,
    narrow: log.filter((e) => e.mutative && !narrowOut(e)).length,
  });
  const per = (n: number): number => Number((n / items).toFixed(2));
  const c = count(phase);
  const table = (log: readonly ProxiedRequest[], divisor: number): Map<string, { n: number; s304: number; create: number }> => {
    const by = new Map<string, { n: number; s304: number; create: number }>();
    for (const e of log) {
      const row = by.get(e.route) ?? { n: 0, s304: 0, create: 0 };
      row.n += 1 / divisor;
      if (e.status === 304) row.s304 += 1 / divisor;
      if (e.mutative) row.create += 1 / divisor;
      by.set(e.route, row);
    }
    return by;
  };
  const show = (by: Map<string, { n: number; s304: number; create: number }>, bench?: Map<string, number>): string[] =>
    [...new Set([...by.keys(), ...(bench?.keys() ?? [])])]
      .map((k) => ({ k, r: by.get(k) ?? { n: 0, s304: 0, create: 0 }, b: bench?.get(k) }))
      .sort((a, b) => b.r.n - a.r.n || (b.b ?? 0) - (a.b ?? 0))
      .map(({ k, r, b }) => `  ${r.n.toFixed(2).padStart(6)}  (304: ${r.s304.toFixed(2)}, content-creating: ${r.create.toFixed(2)})${bench === undefined ? "" : `  bench ${(b ?? 0).toFixed(2).padStart(5)}  diff ${(r.n - (b ?? 0) >= 0 ? "+" : "")}${(r.n - (b ?? 0)).toFixed(2)}`}  ${k}`);

  // The same item count through `api-economy` (RepoTickers, the fake's accounting), for the agreement.
  let benchFigures: Record<string, number> | undefined;
  const benchRoutes = new Map<string, number>();
  if (compare) {
    const run = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(new URL("./api-economy.ts", import.meta.url))], { env: { ...process.env, ECONOMY_ITEMS: String(items), ECONOMY_REPLICAS: String(replicas), ECONOMY_POOL: String(poolSize), ECONOMY_TICK_S: String(tickS) }, encoding: "utf8" });
    const last = run.stdout.trim().split("\n").at(-1) ?? "";
    benchFigures = last.startsWith("{") ? (JSON.parse(last) as Record<string, number>) : undefined;
    let inApp = false;
    for (const line of run.stderr.split("\n")) {
      if (line.startsWith("the App's requests per item")) inApp = true;
      else if (!line.startsWith(" ")) inApp = false;
      const m = inApp ? /^\s+([\d.]+)\s+\(304: [\d.]+, content-creating: [\d.]+\)\s+(.+)$/.exec(line) : null;
      if (m !== null) benchRoutes.set(m[2] ?? "", Number(m[1]));
    }
  }
  console.error(`${items} items, pool ${poolSize}, ${replicas} App replica(s) behind one webhook URL (round robin), a sweep every ${tickS}s of GitHub time (${tickReal.toFixed(0)} real ms); the items took ${gitHubSeconds.toFixed(0)} s of GitHub time and ${delivered} webhook deliveries; done ${done}`);
  console.error(`the App's requests per item from the first approval to the last item settled and its webhooks answered, counted at the proxy (total ${c.total}, 304s ${c.total - c.non304}, mutative ${c.creating}), beside api-economy's:`);
  for (const line of show(table(phase, items), compare ? benchRoutes : undefined)) console.error(line);
  // Where the difference comes from: what api-economy does not play, by the route's reason to be asked.
  const causeOf = (route: string): string =>
    /^(GET \/app(\/installations)?|GET \/installation\/repositories|POST \/app\/installations\/.*)$/.test(route)
      ? "the sweep's installation listings and tokens"
      : /^GET \/repos\/\{owner\}\/\{repo\}(\/contents\/.*|\/installation|\/environments\/.*|\/branches\/.*|\/rules\/.*|\/rulesets|\/labels)?$/.test(route)
        ? "configuration and Setup reads (a push to the default branch drops them)"
        : /^(PATCH|POST) \/repos\/\{owner\}\/\{repo\}\/issues(\/\{issue_number\})?$/.test(route)
          ? "the dashboard issue"
          : route === "GET /repos/{owner}/{repo}/issues/{issue_number}"
            ? "the issue a webhook named, read again"
            : "the tick's reads and writes (api-economy plays these)";
  const causes = new Map<string, [number, number]>();
  for (const [route, r] of table(phase, items)) causes.set(causeOf(route), [(causes.get(causeOf(route))?.[0] ?? 0) + r.n, causes.get(causeOf(route))?.[1] ?? 0]);
  for (const [route, n] of benchRoutes) causes.set(causeOf(route), [causes.get(causeOf(route))?.[0] ?? 0, (causes.get(causeOf(route))?.[1] ?? 0) + n]);
  console.error("by cause, per item (this count, api-economy's):");
  for (const [cause, [mine, theirs]] of causes) console.error(`  ${mine.toFixed(2).padStart(6)}  ${compare ? theirs.toFixed(2).padStart(6) : ""}  ${cause}`);
  console.error(`warm-up (every replica's first sweeps, before any item), all replicas: ${warmup} requests`);
  for (const line of show(table(proxy.log.slice(0, warmup), 1))) console.error(line);
  const idleBy = Array.from({ length: replicas }, (_, i) => {
    const mine = idle.filter((e) => e.client === `replica-${i}`);
    const sweeps = IDLE_SWEEPS;
    return { sweeps, perSweep: Number((mine.length / sweeps).toFixed(2)), non304PerSweep: Number((mine.filter((e) => e.status !== 304).length / sweeps).toFixed(2)) };
  });
  console.error(`idle: ${idle.length} requests over ${idleBy.map((r) => r.sweeps).join("/")} sweeps of the replicas; per sweep of one replica:`);
  for (const line of show(table(idle, idleBy.reduce((s, r) => s + r.sweeps, 0)))) console.error(line);
  const ratio = (a: number, b: number | undefined): number | null => (b === undefined || b === 0 ? null : Number((a / b).toFixed(2)));
  console.log(
    JSON.stringify({
      items,
      replicas,
      tick_s: tickS,
      speed,
      requests_per_item: per(c.total),
      requests_per_item_non_304: per(c.non304),
      content_creating_per_item: per(c.creating),
      content_creating_per_item_narrow: per(c.narrow),
      warmup_requests: warmup,
      idle_requests_per_sweep: idleBy.map((r) => r.perSweep),
      idle_non_304_per_sweep: idleBy.map((r) => r.non304PerSweep),
      done,
      github_seconds: Math.round(gitHubSeconds),
      deliveries_per_item: per(delivered),
      sweeps_per_item: per((replicas * itemsRealMs) / tickReal),
      ...(benchFigures === undefined
        ? {}
        : {
            bench: { requests_per_item: benchFigures["requests_per_item"], requests_per_item_non_304: benchFigures["requests_per_item_non_304"], content_creating_per_item: benchFigures["content_creating_per_item"], ticks: benchFigures["ticks"] },
            agreement: { requests: ratio(per(c.total), benchFigures["requests_per_item"]), non_304: ratio(per(c.non304), benchFigures["requests_per_item_non_304"]), content_creating: ratio(per(c.creating), benchFigures["content_creating_per_item"]), content_creating_narrow: ratio(per(c.narrow), benchFigures["content_creating_per_item"]) },
          }),
    }),
  );
} finally {
  await front.close();
  for (const r of fleet) await r.close();
  await proxy.close();
  await fake.close();
}
