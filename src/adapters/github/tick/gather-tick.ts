import { briefHash } from "../../../core/brief/parse-brief.js";
import { parseIssueBody } from "../../../core/brief/parse-issue-body.js";
import type { ClaimRecord } from "../../../core/claims/claim-record.js";
import type { BosunConfig } from "../../../core/config/bosun-config.js";
import type { WorkerState } from "../../../core/engine/decide-step.js";
import { roleOf, whyNotApprover } from "../../../core/scheduler/approval-rule.js";
import { approvalStands } from "../../../core/scheduler/approval-stands.js";
import { stopFromRun } from "../../../core/scheduler/stop-from-run.js";
import type { ApprovalFacts, BodyBrief, ItemFacts, PullFacts, TickFacts } from "../../../core/scheduler/tick-facts.js";
import type { GitHubClaimStore } from "../github-claim-store.js";
import { claimsByItem } from "./claims-by-item.js";
import { runOf, runsOfItem } from "./run-of.js";
import type { ListedIssue, PullLink, RunView, TickReads } from "./tick-github.js";
import { withEditTimes } from "./with-edit-times.js";
import { listsAgain } from "./lists-again.js";
import { ownShown, waitsForListing } from "./waits-for-listing.js";
import { closedThisAttempt } from "./closed-this-attempt.js";

/** What one process remembers between gathers: parsed bodies, and when it last read each issue's events. */
export interface GatherMemory {
  readonly bodies: Map<number, { readonly updatedAt: number; readonly body: string; readonly brief: BodyBrief }>;
  /** n → the issue's `updatedAt` when its approval events were last read. */
  readonly approvalsRead: Map<number, number>;
}

export const newGatherMemory = (): GatherMemory => ({ bodies: new Map(), approvalsRead: new Map() });

export interface GatherInput {
  readonly github: TickReads;
  readonly store: GitHubClaimStore;
  readonly config: BosunConfig;
  readonly holder: string;
  /** The App's bot login: only runs it started speak for an item. */
  readonly botLogin: string;
  readonly now: number;
  readonly memory: GatherMemory;
  /** Issues a webhook said changed their approval (read their events this tick). */
  readonly hinted: ReadonlySet<number>;
  /** The claim refs and their records, when the tick already listed them (`store.listClaims()`). */
  readonly claims?: Awaited<ReturnType<GitHubClaimStore["listClaims"]>>;
}

/**
 * The gather stage of a tick: every read, once — the approval-labelled issues, the claim records
 * (with who GitHub signed them for), the runs and pull requests of what is in flight or in
 * review, the gate's verdicts on those pull requests, and, only where a decision needs it, an
 * issue's approval events and the evidence probe. Nothing is decided here.
 */
export async function gatherTick(input: GatherInput): Promise<TickFacts> {
  const { github, store, config, now, memory } = input;
  const L = config.labels;
  const prefix = config.claims.ref_prefix;
  const listed = await github.listApproved(L.ready);
  const issues = new Map(listed.map((i) => [i.number, i]));
  const claims = input.claims ?? (await store.listClaims());
  const refs = claimsByItem(claims, prefix);
  // An issue a webhook named that the listing does not show: a listing read right after the label
  // went on can be stale (GitHub's reads lag its writes), so it is read on its own rather than
  // left to the next sweep.
  const readAlone = new Map<number, ListedIssue | undefined>();
  for (const n of input.hinted) {
    if (issues.has(n)) continue;
    const read = await github.issue(n);
    readAlone.set(n, read);
    if (read !== undefined && read.open && read.labels.some((l) => l.toLowerCase() === L.ready.toLowerCase())) issues.set(n, read);
  }
  // An item whose record is not final but whose issue the listing does not show (closed,
  // unlabelled, or missed by a shifting page): read on its own — or, when several are missing (a
  // batch of merges closed their issues), first looked for among the recently closed ones.
  const missing = [...refs].filter(([n, c]) => !issues.has(n) && c.record !== undefined && c.record.state !== "settled" && c.record.state !== "withdrawn").map(([n]) => n);
  const closed = missing.length > 1 ? new Map((await github.listClosedApproved(L.ready)).map((i) => [i.number, i])) : new Map<number, ListedIssue>();
  for (const n of missing) {
    const read = closed.get(n) ?? (readAlone.has(n) ? readAlone.get(n) : await github.issue(n));
    if (read !== undefined) issues.set(n, read);
  }

  const numbers = [...new Set([...issues.keys(), ...refs.keys()])].sort((a, b) => a - b);
  let runs: readonly RunView[] | undefined;
  let pulls: ReadonlyMap<number, readonly PullLink[]> | undefined;
  const heldWorkflow = numbers.filter((n) => {
    const r = refs.get(n)?.record;
    return r?.state === "held" && config.pools[r.pool ?? "default"]?.dispatch.kind === "workflow";
  });
  const anyWorkflow = Object.values(config.pools).some((p) => p.dispatch.kind === "workflow");
  const runOfHeld = (all: readonly RunView[], n: number, r: ClaimRecord): RunView | undefined => runOf(all, n, r.epoch, github.knownRunId(n, r.epoch), r.grantedAt, input.botLogin);
  const needRuns = async (): Promise<readonly RunView[]> => (runs ??= await github.listRuns((all) => heldWorkflow.every((n) => runOfHeld(all, n, refs.get(n)?.record as ClaimRecord) !== undefined)));
  const needPulls = async (): Promise<ReadonlyMap<number, readonly PullLink[]>> => (pulls ??= await github.linkedPulls());
  let relisted = false;
  /** The pull requests listed once more (conditionally), once a tick: the listing in hand may predate what a decision rests on. */
  const relist = async (): Promise<ReadonlyMap<number, readonly PullLink[]>> => {
    if (relisted) return needPulls();
    relisted = true;
    github.invalidate("pulls");
    return (pulls = await github.linkedPulls());
  };
  /**
   * A pull request a record names: from the listing, listed once more if it is not there (it may be
   * newer than the listing), if it shows open while its issue, read this tick, is closed (a merge
   * closes it: the listing is older than the issue, its webhook heard by another replica or lost),
   * or if it shows closed unmerged (the item then goes to a human: it may have been reopened since),
   * else read on its own.
   */
  const pullNamed = async (n: number, number: number, issueClosed: boolean): Promise<PullLink | undefined> => {
    const find = (all: ReadonlyMap<number, readonly PullLink[]>): PullLink | undefined => (all.get(n) ?? []).find((p) => p.number === number);
    let found = find(await needPulls());
    if (found === undefined || found.state === "closed" || (found.state === "open" && issueClosed)) found = find(await relist());
    return found ?? (await github.pull(number));
  };

  /**
   * Whether the tick reads an item's approval from the issue's events: a new approval (no record of
   * one), a hint from a webhook, or — for an item whose life ended, where the label stays on — any
   * change since the last read (a re-approval is the label removed and added again). A queued
   * item's approval is read again at its grant (the screen). An item waiting for a re-approval
   * (its brief changed, or none was frozen) is read like an ended one.
   */
  const wantsApproval = (n: number): boolean => {
    const listedIssue = issues.get(n);
    const r = refs.get(n)?.record;
    const labelled = listedIssue?.open === true && listedIssue.labels.some((l) => l.toLowerCase() === L.ready.toLowerCase());
    if (!labelled) return false;
    const changedSinceRead = (memory.approvalsRead.get(n) ?? Number.NEGATIVE_INFINITY) < listedIssue.updatedAt;
    const ended = r?.state === "invalid" || r?.state === "settled" || r?.state === "withdrawn";
    const brief = briefOf(memory, listedIssue);
    const awaitsApproval = (r?.state === "approved" || r?.state === "released") && (!brief.ok || brief.hash !== r.briefHash);
    return input.hinted.has(n) || r?.approval === undefined || ((ended || awaitsApproval) && changedSinceRead);
  };
  // Every approval the tick needs, in one read of the repository's newest issue events where it can.
  const approvals = await github.approvals(
    numbers.filter(wantsApproval).map((n) => {
      const author = issues.get(n)?.author ?? "";
      return { n, mayApprove: async (login: string) => whyNotApprover(login, roleOf(await github.role(login), undefined), author, config) };
    }),
    L.ready,
  );

  const items: ItemFacts[] = [];
  /** New approvals read this tick, whose body's edit time is read for all of them at once after the loop. */
  const newApprovals: Array<{ facts: { approval?: ApprovalFacts }; n: number; body: string; updatedAt: number; approval: ApprovalFacts }> = [];
  for (const n of numbers) {
    const listedIssue = issues.get(n);
    const claim = refs.get(n);
    const r = claim?.record;
    const issueFacts = listedIssue === undefined ? undefined : { title: listedIssue.title, labels: listedIssue.labels, createdAt: listedIssue.createdAt, open: listedIssue.open, completed: listedIssue.completed, author: listedIssue.author, brief: briefOf(memory, listedIssue) };
    const facts: { -readonly [K in keyof ItemFacts]: ItemFacts[K] } = { n, ref: `${prefix}${n}`, sha: claim?.sha, floor: 0 };
    if (r !== undefined) facts.record = r;
    if (claim?.forged !== undefined) facts.forged = { signedBy: claim.forged.signedBy };
    if (issueFacts !== undefined) facts.issue = issueFacts;

    // The approval, read from the issue's events where a decision rests on it (`wantsApproval`).
    const labelled = listedIssue?.open === true && listedIssue.labels.some((l) => l.toLowerCase() === L.ready.toLowerCase());
    const approval = approvals.get(n);
    if (approval !== undefined && listedIssue !== undefined) {
      facts.approval = approval;
      if (isNew(approval, r)) newApprovals.push({ facts, n, body: listedIssue.body, updatedAt: listedIssue.updatedAt, approval });
      else memory.approvalsRead.set(n, listedIssue.updatedAt);
    }

    // A grant starts above every epoch the item ever had: its floor, and any run titled for it; and
    // never while a run for it is still in progress — its claim ref may have been deleted under
    // it, and the approval recorded again since (DESIGN.md, "two live workers never hold one item").
    if (labelled && (r === undefined || r.state === "approved" || r.state === "released")) {
      if (r === undefined) facts.floor = await store.floorOf(`${prefix}${n}`);
      if (r === undefined || anyWorkflow) {
        const named = runsOfItem(await needRuns(), n, input.botLogin, r?.landing?.run === undefined ? undefined : { run: r.landing.run, epoch: r.epoch });
        facts.floor = Math.max(facts.floor, named.maxEpoch);
        if (named.live) facts.runLive = true;
      }
    }

    if (r?.state === "held") {
      const pool = config.pools[r.pool ?? "default"];
      let worker: WorkerState = { kind: "unseen" };
      let run: RunView | undefined;
      if (pool?.dispatch.kind === "workflow") {
        run = runOfHeld(await needRuns(), n, r);
        if (run?.status === "completed") worker = { kind: "ended", stop: stopFromRun(run.conclusion, run.url, run.rerunBy), run: run.id, url: run.url };
        else if (run !== undefined) worker = { kind: "live" };
      }
      let links = (await needPulls()).get(n) ?? [];
      // A listing that may predate the worker's pull request, where a decision rests on it (`listsAgain`),
      // is read again; then a run that ended moments ago waits out GitHub's lag (`waitsForListing`).
      if (listsAgain(worker, links, r, now)) links = (await relist()).get(n) ?? [];
      if (waitsForListing(worker, ownShown(links), run?.updatedAt, now)) worker = { kind: "live" };
      const open = links.find((p) => p.state === "open" && p.bosunBranch) ?? links.find((p) => p.state === "open");
      const mergedPull = links.find((p) => p.state === "merged");
      const pull = open ?? mergedPull;
      const closed = closedThisAttempt(links, r.grantedAt);
      if (pull !== undefined) facts.pull = pullFacts(pull);
      if (worker.kind === "unseen") {
        // No run (or not a workflow pool): the pull request is the worker.
        if (mergedPull !== undefined) worker = { kind: "ended", stop: { kind: "done", reason: `pull request #${mergedPull.number} merged` } };
        else if (open !== undefined) worker = pool?.dispatch.kind === "workflow" ? { kind: "live" } : { kind: "ended", stop: { kind: "done", reason: `pull request #${open.number} opened` } };
        else if (closed !== undefined) worker = { kind: "ended", stop: { kind: "blocked", reason: `pull request #${closed.number} was closed unmerged` } };
      }
      facts.worker = worker;
    }
    if ((r?.state === "review" || r?.state === "merged") && r.pull !== undefined) {
      const pull = await pullNamed(n, r.pull, listedIssue?.open === false);
      if (pull !== undefined) {
        facts.pull = pullFacts(pull);
        if (pull.state === "open") {
          const gate = await github.gateVerdict(pull.head);
          if (gate !== undefined) facts.gate = gate;
        }
      }
    }
    if (r?.state === "settled" && r.outcome?.ok !== true && labelled) {
      // A human may have fixed what was refused: a merge of the item's pull request ends it done.
      const merged = ((await needPulls()).get(n) ?? []).find((p) => p.state === "merged" && p.bosunBranch);
      if (merged !== undefined) facts.pull = pullFacts(merged);
    }
    items.push(facts);
  }
  // The new approvals' edit times, in one read.
  const edits = await withEditTimes(github, newApprovals);
  for (const [i, entry] of newApprovals.entries()) {
    const approval = edits[i] ?? entry.approval;
    entry.facts.approval = approval;
    // A new approval whose text could not be placed is read again next tick, changed or not.
    if (approval.kind !== "approved" || approval.bodyEditedAt !== undefined) memory.approvalsRead.set(entry.n, entry.updatedAt);
  }
  // Blockers named `#m` that the listing does not show: their issue decides (closed as completed is done).
  const known = new Set(items.map((i) => i.n));
  for (const item of [...items]) {
    const brief = item.issue?.brief;
    if (brief?.ok !== true || item.record === undefined || (item.record.state !== "approved" && item.record.state !== "released")) continue;
    for (const b of brief.brief.blocked_by) {
      const m = Number(b.slice(1));
      if (!b.startsWith("#") || !Number.isInteger(m) || m <= 0 || known.has(m)) continue;
      known.add(m);
      const read = await github.issue(m);
      if (read !== undefined) items.push({ n: m, ref: `${prefix}${m}`, sha: undefined, floor: 0, issue: { title: read.title, labels: read.labels, createdAt: read.createdAt, open: read.open, completed: read.completed, author: read.author, brief: briefOf(memory, read) } });
    }
  }
  return { now, holder: input.holder, config, items };
}

/**
 * The screens of the items a plan would grant, read only for them: the approval read again from
 * the issue's events (unless this tick already read it) and the evidence probe. Returns the facts
 * with those items' screens filled in.
 */
export async function screenItems(input: GatherInput, facts: TickFacts, screen: readonly number[]): Promise<TickFacts> {
  const { github, config } = input;
  const want = new Set(screen);
  // The grant's writer checks the snapshot is there before it dispatches: what this process does not know, read in one go.
  await github.readBotComments(screen);
  const items: ItemFacts[] = [];
  const unread: Array<{ at: number; n: number; body: string | undefined; approval: ApprovalFacts }> = [];
  // Made a moment ago, an approval was read after it was made: not read again (`approvalStands`).
  // The others, all in one read of the repository's newest issue events where it can.
  const toRead = facts.items.filter((item) => want.has(item.n) && item.issue !== undefined && item.approval === undefined && approvalStands(item, facts.now) !== true);
  const approvals = await github.approvals(
    toRead.map((item) => {
      const author = item.issue?.author ?? "";
      return { n: item.n, mayApprove: async (login: string) => whyNotApprover(login, roleOf(await github.role(login), undefined), author, config) };
    }),
    config.labels.ready,
  );
  for (const item of facts.items) {
    if (!want.has(item.n) || item.issue === undefined) {
      items.push(item);
      continue;
    }
    let approval = item.approval;
    const read = approvals.get(item.n);
    if (approval === undefined && read !== undefined) {
      approval = read;
      if (isNew(approval, item.record)) unread.push({ at: items.length, n: item.n, body: input.memory.bodies.get(item.n)?.body, approval });
    }
    const evidence = await github.evidence(item.n, item.record === undefined || item.record.epoch === 0);
    items.push({ ...item, ...(approval === undefined ? {} : { approval }), evidence });
  }
  const edits = await withEditTimes(github, unread);
  for (const [i, entry] of unread.entries()) {
    const approval = edits[i];
    const item = items[entry.at];
    if (approval !== undefined && item !== undefined) items[entry.at] = { ...item, approval };
  }
  return { ...facts, items };
}

/** An approval the record does not hold yet: the text it approves must be placed by the body's edit time. */
const isNew = (approval: ApprovalFacts, r: ClaimRecord | undefined): boolean => approval.kind === "approved" && approval.approval.id !== r?.approval?.id;

function pullFacts(p: PullLink): PullFacts {
  return { number: p.number, state: p.state, head: p.head, bosunBranch: p.bosunBranch, ...(p.mergeSha === undefined ? {} : { mergeSha: p.mergeSha }) };
}

/** The brief an issue's body holds now, parsed once per body. */
function briefOf(memory: GatherMemory, issue: ListedIssue): BodyBrief {
  const known = memory.bodies.get(issue.number);
  if (known !== undefined && known.body === issue.body) return known.brief;
  const parsed = parseIssueBody(issue.body, { name: `issue #${issue.number}`, defaultId: String(issue.number) });
  const brief: BodyBrief = parsed.ok ? { ok: true, brief: parsed.brief, hash: briefHash(parsed.brief) } : { ok: false, problems: parsed.problems };
  memory.bodies.set(issue.number, { updatedAt: issue.updatedAt, body: issue.body, brief });
  return brief;
}
