import type { Octokit } from "@octokit/rest";
import { isItemBranch } from "../../../core/agents/item-branch.js";
import { isSnapshotComment, parseSnapshotComment } from "../../../core/brief/snapshot.js";
import { parseGateCheckMarker } from "../../../core/journal/gate-check-marker.js";
import { isStatusComment } from "../../../core/scheduler/status-comment.js";
import { normalizeLogin } from "../../../core/separation/identity.js";
import { createConditionalGet } from "../conditional-get.js";
import { statusOf } from "../status-of.js";
import { issueOfBranch } from "./issue-of-branch.js";
import { firstAttemptOf } from "./first-attempt.js";
import type { FirstAttempts } from "./first-attempt.js";
import { octokitDispatch } from "./octokit-dispatch.js";
import { octokitDispatchBatch } from "./octokit-dispatch-batch.js";
import type { ApprovalFacts } from "../../../core/scheduler/tick-facts.js";
import type { BodyEdit, BotComments, ListedIssue, PullLink, RunView, TickGitHub } from "./tick-github.js";

/** The check run the gate posts its verdict as; branch protection requires it by this name. */
export const GATE_CHECK_NAME = "bosun/gate";

/** `Closes #12`, `fixes #3`, `Resolves #4`: GitHub's closing keywords. */
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b/gi;

export interface OctokitTickOptions {
  readonly owner: string;
  readonly repo: string;
  /** The App's bot login (`bosun[bot]`): its comments and check runs are Bosun's. */
  readonly botLogin: string;
  /** Where workflow dispatches run unless a pool names a ref. */
  readonly defaultBranch: string;
  /** The clock (ms), for how old a cached listing or role is. */
  readonly now: () => number;
  /** How long the pull request and branch listings are reused (a webhook about either drops them at once). */
  readonly evidenceMaxAgeMs?: number;
  /** A user-to-server client for `assign` to Copilot, which refuses installation tokens. */
  readonly copilot?: Octokit;
}

/** How long a gate verdict read is reused before it is asked again (a re-run may change it), and "no verdict yet". */
const GATE_MAX_AGE_MS = 10 * 60_000;
const GATE_PENDING_MAX_AGE_MS = 30_000;

const BODY_EDIT_QUERY = "query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { issue(number: $number) { body lastEditedAt } } }";
/** Issues per body-edit query: one alias each (`i<n>: issue(number: n)`). */
const BODY_EDITS_PER_QUERY = 50;
const bodyEditsQuery = (numbers: readonly number[]): string => `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ${numbers.map((n) => `i${n}: issue(number: ${n}) { body lastEditedAt }`).join(" ")} } }`;
type EditedIssue = { body: string; lastEditedAt: string | null } | null | undefined;
/** An issue's body and edit time as GraphQL answered them; undefined when they do not make a pair. */
const bodyEditOf = (issue: EditedIssue): BodyEdit | undefined => {
  if (issue === undefined || issue === null) return undefined;
  const at = issue.lastEditedAt === null ? null : Date.parse(issue.lastEditedAt);
  return at !== null && Number.isNaN(at) ? undefined : { body: issue.body, editedAt: at };
};

/** Issues per comments query, and comments read per issue (an issue with more is read through REST's pages). */
const COMMENTS_PER_QUERY = 20;
const commentsQuery = (numbers: readonly number[]): string => `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ${numbers.map((n) => `i${n}: issue(number: ${n}) { comments(first: 100) { totalCount nodes { databaseId body author { __typename login } } } }`).join(" ")} } }`;

/** Bosun's snapshot (its latest) and status comment (its first) among an issue's comments, oldest first. */
function bosunsComments(all: ReadonlyArray<{ readonly id: number; readonly body: string; readonly bot: boolean }>): BotComments {
  const found: { -readonly [K in keyof BotComments]: BotComments[K] } = {};
  for (const c of all) {
    if (!c.bot) continue;
    if (isSnapshotComment(c.body)) {
      const parsed = parseSnapshotComment(c.body, `comment ${c.id}`);
      found.snapshot = parsed.ok ? { id: c.id, hash: parsed.snapshot.hash } : { id: c.id, hash: "" };
    } else if (isStatusComment(c.body) && found.status === undefined) found.status = { id: c.id, body: c.body };
  }
  return found;
}

/** Pages of the repository's newest issue events read for several approvals before each issue is read on its own. */
const REPO_EVENT_PAGES = 2;

/** What the latest `labeled`/`unlabeled` event of the approval label says, with whether its actor may approve. */
async function approvalOf(latest: { readonly id: number; readonly event: string; readonly actor: string; readonly at: number }, mayApprove: (login: string) => Promise<string | undefined>): Promise<ApprovalFacts> {
  if (latest.event === "unlabeled") return { kind: "withdrawn", by: latest.actor, at: latest.at };
  const approval = { id: latest.id, by: latest.actor, at: latest.at };
  const why = await mayApprove(latest.actor);
  return why === undefined ? { kind: "approved", approval } : { kind: "refused", approval, why };
}

/** How long a collaborator's role is trusted before it is asked again. */
const ROLE_MAX_AGE_MS = 5 * 60_000;

type RestIssue = { number: number; title: string; body?: string | null; labels: Array<string | { name?: string }>; user: { login: string } | null; created_at: string; updated_at: string; comments: number; state: string; state_reason?: string | null; pull_request?: unknown };

const listedOf = (i: RestIssue): ListedIssue => ({
  number: i.number,
  title: i.title,
  body: i.body ?? "",
  labels: i.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))).filter((l) => l !== ""),
  author: i.user?.login ?? "ghost",
  createdAt: Date.parse(i.created_at),
  updatedAt: Date.parse(i.updated_at),
  comments: i.comments,
  open: i.state === "open",
  completed: i.state === "closed" && i.state_reason === "completed",
});

/**
 * The tick's reads and writes over Octokit, for one repository. List reads are conditional
 * (ETag): a tick that finds nothing changed costs 304s, which do not count against the rate limit.
 */
export function octokitTickGitHub(octokit: Octokit, options: OctokitTickOptions): TickGitHub {
  const { owner, repo, now } = options;
  const conditional = createConditionalGet();
  const bot = normalizeLogin(options.botLogin);
  const runIds = new Map<string, number>();
  const firstAttempts: FirstAttempts = new Map();
  const roles = new Map<string, { role: string; at: number }>();
  /** What this process knows of Bosun's comments per issue: read, or written by it since. */
  const comments = new Map<number, BotComments>();
  const listedAt = new Map<"pulls" | "branches", number>();
  const maxAgeMs = options.evidenceMaxAgeMs ?? 300_000;
  let pullLinks: ReadonlyMap<number, readonly PullLink[]> = new Map();
  let branchLinks: ReadonlyMap<number, string> = new Map();
  let gateEpoch = 0;
  const gates = new Map<string, { epoch: number; at: number; verdict: Awaited<ReturnType<TickGitHub["gateVerdict"]>> }>();
  const fresh = (what: "pulls" | "branches"): boolean => {
    const at = listedAt.get(what);
    return at !== undefined && now() - at < maxAgeMs;
  };
  const linkOf = (pr: { number: number; state: string; merged_at: string | null; merge_commit_sha?: string | null; head: { ref: string; sha: string; repo: { full_name: string } | null }; user: { login: string } | null }, n: number): PullLink => {
    const merged = pr.merged_at !== null;
    return {
      number: pr.number,
      state: pr.state === "open" ? "open" : merged ? "merged" : "closed",
      head: pr.head.sha,
      ...(merged && typeof pr.merge_commit_sha === "string" ? { mergeSha: pr.merge_commit_sha } : {}),
      bosunBranch: pr.head.repo?.full_name === `${owner}/${repo}` && isItemBranch(pr.head.ref, n),
      author: pr.user?.login ?? "ghost",
    };
  };

  return {
    async listApproved(label) {
      const byNumber = new Map<number, ListedIssue>();
      const pass = async (direction: "asc" | "desc"): Promise<number> => {
        let pages = 0;
        for (let page = 1; page < 100; page++) {
          pages++;
          const data = await conditional(`issues:${label}:${direction}:${page}`, (headers) => octokit.rest.issues.listForRepo({ owner, repo, labels: label, state: "open", per_page: 100, page, sort: "created", direction, headers }));
          for (const i of data) if (i.pull_request === undefined && !byNumber.has(i.number)) byNumber.set(i.number, listedOf(i as RestIssue));
          if (data.length < 100) break;
        }
        return pages;
      };
      // Pages are offsets: an issue leaving while they are read shifts the next page. Over several
      // pages, a second pass the other way round sees what the first one skipped.
      if ((await pass("asc")) > 1) await pass("desc");
      return [...byNumber.values()].sort((a, b) => a.createdAt - b.createdAt || a.number - b.number);
    },

    async listClosedApproved(label) {
      const data = await conditional(`closed:${label}`, (headers) => octokit.rest.issues.listForRepo({ owner, repo, labels: label, state: "closed", per_page: 100, sort: "updated", direction: "desc", headers }));
      return data.filter((i) => i.pull_request === undefined).map((i) => listedOf(i as RestIssue));
    },

    async issue(n) {
      // A 404 can be a replica that has not caught up: asked again before the issue counts as gone (410, deleted, is final).
      for (let attempt = 1; ; attempt++) {
        try {
          // Conditional: the server answers 304 only when the issue is unchanged (free against the limit).
          const data = await conditional(`issue:${n}`, (headers) => octokit.rest.issues.get({ owner, repo, issue_number: n, headers }));
          return data.pull_request === undefined ? listedOf(data as RestIssue) : undefined;
        } catch (err) {
          if (statusOf(err) === 410 || (statusOf(err) === 404 && attempt >= 3)) return undefined;
          if (statusOf(err) !== 404) throw err;
        }
      }
    },

    async approval(n, label, mayApprove) {
      // GitHub's issue events, oldest first: the newest labeled/unlabeled event of the label decides.
      const want = label.toLowerCase();
      let latest: { id: number; event: string; actor: string; at: number } | undefined;
      for (let page = 1; page <= 30; page++) {
        const data = await conditional(`events:${n}:${page}`, (headers) => octokit.rest.issues.listEvents({ owner, repo, issue_number: n, per_page: 100, page, headers }));
        for (const e of data) {
          if ((e.event !== "labeled" && e.event !== "unlabeled") || !("label" in e) || e.label?.name?.toLowerCase() !== want) continue;
          latest = { id: e.id, event: e.event, actor: e.actor?.login ?? "ghost", at: Date.parse(e.created_at) };
        }
        if (data.length < 100) break;
      }
      return latest === undefined ? { kind: "none" } : approvalOf(latest, mayApprove);
    },

    async approvals(wanted, label) {
      const out = new Map<number, ApprovalFacts>();
      const want = label.toLowerCase();
      const open = new Map(wanted.map((w) => [w.n, w]));
      // One issue: its own events are one read as well.
      if (open.size > 1) {
        // The repository's issue events, newest first: the first event of the label an issue shows
        // is its latest. GitHub does not document that order, so a page that is not newest first
        // settles nothing. An issue not settled within these pages is read on its own.
        let before = Number.POSITIVE_INFINITY;
        for (let page = 1; page <= REPO_EVENT_PAGES && open.size > 0; page++) {
          const data = await conditional(`repo-events:${page}`, (headers) => octokit.rest.issues.listEventsForRepo({ owner, repo, per_page: 100, page, headers }));
          const newestFirst = data.every((e, i) => e.id < (i === 0 ? before : (data[i - 1]?.id ?? 0)));
          if (!newestFirst) break;
          before = data.at(-1)?.id ?? before;
          for (const e of data) {
            const n = e.issue?.number;
            const w = n === undefined ? undefined : open.get(n);
            if (w === undefined || (e.event !== "labeled" && e.event !== "unlabeled") || e.label?.name?.toLowerCase() !== want) continue;
            open.delete(w.n);
            out.set(w.n, await approvalOf({ id: e.id, event: e.event, actor: e.actor?.login ?? "ghost", at: Date.parse(e.created_at) }, w.mayApprove));
          }
          if (data.length < 100) break;
        }
      }
      for (const w of open.values()) out.set(w.n, await this.approval(w.n, label, w.mayApprove));
      return out;
    },

    async bodyEdits(numbers) {
      // REST's issue has no edit time (its `updated_at` moves on labels and comments too); GraphQL's
      // `lastEditedAt` of the `Comment` interface is the body's last edit
      // (docs.github.com/en/graphql/reference/interfaces#comment). The body comes in the same read,
      // and every new approval of a tick in one query: one alias per issue.
      const out = new Map<number, BodyEdit>();
      const one = async (n: number): Promise<void> => {
        try {
          const data = await octokit.graphql<{ repository: { issue: EditedIssue } | null }>(BODY_EDIT_QUERY, { owner, name: repo, number: n });
          const read = bodyEditOf(data.repository?.issue);
          if (read !== undefined) out.set(n, read);
        } catch {
          // Not known (not found yet, an error): the approval waits for a read that answers.
        }
      };
      const unique = [...new Set(numbers)].filter((n) => Number.isSafeInteger(n) && n > 0);
      for (let i = 0; i < unique.length; i += BODY_EDITS_PER_QUERY) {
        const chunk = unique.slice(i, i + BODY_EDITS_PER_QUERY);
        if (chunk.length === 1) {
          await one(chunk[0] as number);
          continue;
        }
        try {
          const data = await octokit.graphql<{ repository: Record<string, EditedIssue> | null }>(bodyEditsQuery(chunk), { owner, name: repo });
          for (const n of chunk) {
            const read = bodyEditOf(data.repository?.[`i${n}`]);
            if (read !== undefined) out.set(n, read);
          }
        } catch {
          // One issue the query cannot resolve (gone, not found yet) fails the whole answer: each is asked on its own.
          for (const n of chunk) await one(n);
        }
      }
      return out;
    },

    async role(login) {
      const key = login.toLowerCase();
      const known = roles.get(key);
      if (known !== undefined && now() - known.at < ROLE_MAX_AGE_MS) return known.role;
      let role = "none";
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: login });
        role = (data as { role_name?: string }).role_name ?? data.permission;
      } catch (err) {
        if (statusOf(err) !== 404) throw err;
      }
      roles.set(key, { role, at: now() });
      return role;
    },

    async listRuns(enough) {
      // A long run can be pushed off the first page by the short ones after it: read on while a
      // run in flight is still missing (each page a conditional request).
      const out: RunView[] = [];
      for (let page = 1; page <= 10; page++) {
        const data = await conditional(`runs:${page}`, (headers) => octokit.rest.actions.listWorkflowRunsForRepo({ owner, repo, event: "workflow_dispatch", per_page: 100, page, headers }));
        for (const r of data.workflow_runs) {
          const run = await firstAttemptOf(octokit, { owner, repo }, r, firstAttempts);
          if (run !== undefined) out.push(run);
        }
        if (data.workflow_runs.length < 100 || enough(out)) break;
      }
      return out;
    },

    knownRunId: (n, epoch) => runIds.get(`${n}:${epoch}`),

    async linkedPulls() {
      if (fresh("pulls")) return pullLinks;
      const data = await conditional("pulls", (headers) => octokit.rest.pulls.list({ owner, repo, state: "all", sort: "updated", direction: "desc", per_page: 100, headers }));
      const links = new Map<number, PullLink[]>();
      for (const pr of data) {
        const issues = new Set<number>();
        for (const m of (pr.body ?? "").matchAll(CLOSING)) issues.add(Number(m[1]));
        const branch = issueOfBranch(pr.head.ref);
        if (branch !== undefined) issues.add(branch);
        for (const n of issues) links.set(n, [...(links.get(n) ?? []), linkOf(pr, n)]);
      }
      pullLinks = links;
      listedAt.set("pulls", now());
      return links;
    },

    async pull(number) {
      try {
        const data = await conditional(`pull:${number}`, (headers) => octokit.rest.pulls.get({ owner, repo, pull_number: number, headers }));
        return linkOf(data, issueOfBranch(data.head.ref) ?? 0);
      } catch (err) {
        if (statusOf(err) === 404 || statusOf(err) === 410) return undefined;
        throw err;
      }
    },

    async gateVerdict(sha) {
      const known = gates.get(sha);
      // A check_run webhook drops what is known (gateEpoch). Without one (webhooks get lost) a
      // verdict is read again after a while, and "none yet" sooner: each read is conditional, so an
      // unchanged answer is a 304, free against the rate limit.
      const maxAge = known?.verdict === undefined ? GATE_PENDING_MAX_AGE_MS : GATE_MAX_AGE_MS;
      if (known !== undefined && known.epoch === gateEpoch && now() - known.at < maxAge) return known.verdict;
      const data = await conditional(`gate:${sha}`, (headers) => octokit.rest.checks.listForRef({ owner, repo, ref: sha, check_name: GATE_CHECK_NAME, filter: "latest", per_page: 100, headers }));
      let verdict: Awaited<ReturnType<TickGitHub["gateVerdict"]>>;
      let newest = -1;
      for (const run of data.check_runs) {
        // Only the Bosun App's own verdict: `github-actions` is every workflow, including those a pull request edits.
        if (normalizeLogin(run.app?.slug ?? "") !== bot || run.status !== "completed" || run.head_sha !== sha || run.id < newest) continue;
        const parsed = parseGateCheckMarker(run.output.summary);
        if (!parsed.ok || parsed.marker.sha !== sha) continue;
        newest = run.id;
        const m = parsed.marker;
        verdict = { verdict: m.verdict, sha, reason: m.reason ?? run.output.title ?? m.verdict, ...(m.verdict === "fail" ? { failure: m.failure ?? "refuse" } : {}) };
      }
      gates.set(sha, { epoch: gateEpoch, at: now(), verdict });
      return verdict;
    },

    async evidence(n, neverClaimed) {
      // Bosun's own pull request from an earlier epoch is where a retry continues, not someone else's work.
      const open = ((await this.linkedPulls()).get(n) ?? []).find((p) => p.state === "open" && (neverClaimed || !p.bosunBranch));
      if (open !== undefined) return `pull request #${open.number} is open for it`;
      if (!neverClaimed) return null;
      if (!fresh("branches")) {
        const refs = await conditional("branches", (headers) => octokit.rest.git.listMatchingRefs({ owner, repo, ref: "heads/", headers }));
        const links = new Map<number, string>();
        for (const r of refs) {
          const name = r.ref.replace(/^refs\/heads\//, "");
          const m = issueOfBranch(name);
          if (m !== undefined && !links.has(m)) links.set(m, name);
        }
        branchLinks = links;
        listedAt.set("branches", now());
      }
      const branch = branchLinks.get(n);
      return branch === undefined ? null : `branch ${branch} exists for it`;
    },

    async botComments(n, fresh) {
      const cached = comments.get(n);
      if (cached !== undefined && !fresh) return cached;
      const all = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: n, per_page: 100 });
      const found = bosunsComments(all.map((c) => ({ id: c.id, body: c.body ?? "", bot: normalizeLogin(c.user?.login ?? "") === bot && c.user?.type === "Bot" })));
      comments.set(n, found);
      return found;
    },

    async readBotComments(numbers) {
      const unknown = [...new Set(numbers)].filter((n) => Number.isSafeInteger(n) && n > 0 && !comments.has(n));
      for (let i = 0; i < unknown.length; i += COMMENTS_PER_QUERY) {
        const chunk = unknown.slice(i, i + COMMENTS_PER_QUERY);
        let data: { repository: Record<string, { comments: { totalCount: number; nodes: Array<{ databaseId: number; body: string; author: { __typename: string; login: string } | null } | null> } } | null> | null };
        try {
          data = await octokit.graphql(commentsQuery(chunk), { owner, name: repo });
        } catch {
          // Each issue is read on its own when its comments are needed.
          continue;
        }
        for (const n of chunk) {
          const connection = data.repository?.[`i${n}`]?.comments;
          const nodes = connection?.nodes.filter((c) => c !== null) ?? [];
          // Only a whole list says what is not there.
          if (connection === undefined || nodes.length < connection.totalCount) continue;
          // GraphQL names an App's bot by its slug, as a `Bot`: `bosun[bot]` is `{__typename: "Bot", login: "bosun"}`.
          comments.set(n, bosunsComments(nodes.map((c) => ({ id: c.databaseId, body: c.body, bot: c.author?.__typename === "Bot" && normalizeLogin(c.author.login) === bot }))));
        }
      }
    },

    invalidate(what) {
      if (what === "gates") gateEpoch++;
      else listedAt.delete(what);
    },

    async setLabels(n, labels) {
      await octokit.rest.issues.setLabels({ owner, repo, issue_number: n, labels: [...labels] });
    },

    async comment(n, body) {
      const id = (await octokit.rest.issues.createComment({ owner, repo, issue_number: n, body })).data.id;
      // Known without reading it back: the next status update edits it, the next snapshot check sees it.
      const known = comments.get(n) ?? {};
      if (isStatusComment(body) && known.status === undefined) comments.set(n, { ...known, status: { id, body } });
      else if (isSnapshotComment(body)) {
        const parsed = parseSnapshotComment(body, `comment ${id}`);
        comments.set(n, { ...known, snapshot: { id, hash: parsed.ok ? parsed.snapshot.hash : "" } });
      }
      return id;
    },

    async updateComment(id, body) {
      try {
        await octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body });
      } catch (err) {
        // Someone deleted it: forget it, so the next read finds what is there.
        if (statusOf(err) === 404) for (const [n, known] of comments) if (known.status?.id === id) comments.delete(n);
        throw err;
      }
      for (const [n, known] of comments) if (known.status?.id === id) comments.set(n, { ...known, status: { id, body } });
    },

    async closeIssue(n) {
      await octokit.rest.issues.update({ owner, repo, issue_number: n, state: "closed", state_reason: "completed" });
    },

    dispatch: octokitDispatch(octokit, { owner, repo, defaultBranch: options.defaultBranch, copilot: options.copilot }, runIds),
    dispatchBatch: octokitDispatchBatch(octokit, { owner, repo, defaultBranch: options.defaultBranch }, runIds),
  };
}
