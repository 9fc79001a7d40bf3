import type { BriefResult } from "../brief/brief.js";
import { briefHash } from "../brief/parse-brief.js";
import { parseIssueBody } from "../brief/parse-issue-body.js";
import { renderSnapshotComment, parseSnapshotComment, SNAPSHOT_MARKER, type BriefSnapshot } from "../brief/snapshot.js";
import { sha256Hex } from "../util/sha256.js";
import { LANDING_MARKER } from "../scheduler/landing-marker.js";
import { HOLD_MARKER, INVALID_MARKER, renderHoldNotice, renderProblemsComment } from "./intake-comments.js";
import type { IntakeAction, IntakeComment, IntakeContext, IntakeDecision, IntakeEvent, IssueView } from "./intake-types.js";

/** What the executor must read before deciding: nothing at all for events the intake ignores. */
export interface IntakeReads {
  readonly relevant: boolean;
  readonly reason: string;
  /** The sender's permission (only for an approval). */
  readonly permission: boolean;
  /** The issue's comments (the bot's snapshot and notices). */
  readonly comments: boolean;
}

/** Decides from the webhook alone which reads an event needs, so irrelevant events cost no request. */
export function intakeReads(event: Pick<IntakeEvent, "kind" | "sender"> & { readonly label?: string }, ctx: IntakeContext): IntakeReads {
  const none = (reason: string): IntakeReads => ({ relevant: false, reason, permission: false, comments: false });
  if (isBot(event.sender, ctx)) return none("Bosun's own change");
  switch (event.kind) {
    case "labeled":
      return event.label === ctx.labels.ready ? { relevant: true, reason: "approval", permission: true, comments: true } : none(`label ${event.label ?? "?"} is not ${ctx.labels.ready}`);
    case "unlabeled":
      return event.label === ctx.labels.ready || event.label === ctx.labels.queued ? { relevant: true, reason: "withdrawal", permission: false, comments: false } : none(`label ${event.label ?? "?"} does not take an item out of the queue`);
    case "edited":
      return { relevant: true, reason: "edit", permission: false, comments: true };
    case "closed":
      return { relevant: true, reason: "close", permission: false, comments: false };
  }
}

/**
 * The intake as a pure function of the issue's current state: the same state gives the same
 * actions, and actions already reflected in the state are not repeated, so a redelivered, duplicated
 * or reordered webhook changes nothing (idempotent by state, not by delivery id).
 */
export function decideIntake(event: IntakeEvent, issue: IssueView, ctx: IntakeContext): IntakeDecision {
  if (isBot(event.sender, ctx)) return ignored("Bosun's own change");
  switch (event.kind) {
    case "labeled":
      return decideApproval(event, issue, ctx);
    case "edited":
      return decideEdit(issue, ctx);
    case "unlabeled":
      if (event.label === ctx.labels.queued) return { outcome: "left", reason: `${event.sender} removed ${ctx.labels.queued}`, actions: [noop("the label was the queue entry")] };
      if (event.label !== ctx.labels.ready) return ignored(`label ${event.label} is not Bosun's`);
      if (has(issue, ctx.labels.ready)) return unchanged(`${ctx.labels.ready} was added back since`);
      return leave(issue, ctx, [ctx.labels.queued, ctx.labels.hold, ctx.labels.invalidBrief], `${event.sender} withdrew the approval`);
    case "closed":
      if (issue.state === "open") return unchanged("the issue was reopened since");
      return leave(issue, ctx, [ctx.labels.queued, ctx.labels.hold], "the issue is closed");
  }
}

function decideApproval(event: Extract<IntakeEvent, { kind: "labeled" }>, issue: IssueView, ctx: IntakeContext): IntakeDecision {
  const L = ctx.labels;
  if (event.label !== L.ready) return ignored(`label ${event.label} is not ${L.ready}`);
  if (!event.senderCanWrite) return ignored(`${event.sender} cannot approve: write, maintain or admin is needed`);
  if (issue.state !== "open") return ignored("the issue is closed");
  // The webhook says the label was added; a read right after can still be from before it. That is
  // a reason to read again, not proof that it was removed (the executor retries, then gives up
  // and leaves it to the sweep, which takes in any approval it finds).
  if (!has(issue, L.ready)) return { outcome: "stale", reason: `the issue as read does not carry ${L.ready} yet`, actions: [noop("read again")] };
  const parsed = parseIssueBody(issue.body, { name: `issue #${issue.number}`, defaultId: String(issue.number) });
  const snapshot = latestSnapshot(issue, ctx);
  if (!parsed.ok) {
    const body = renderProblemsComment(parsed.problems, L.ready);
    const latest = latestBotComment(issue, ctx, [SNAPSHOT_MARKER, INVALID_MARKER, HOLD_MARKER]);
    const actions: IntakeAction[] = latest?.body === body ? [] : [{ kind: "comment", body }];
    actions.push(...labelChanges(issue, [L.invalidBrief], [L.queued, L.hold]));
    return decided("invalid", `${parsed.problems.length} problem(s) in the brief`, actions);
  }
  const hash = briefHash(parsed.brief);
  // A snapshot that already carries a landing was worked: approving again freezes a new one (the scheduler re-runs a settled item only for a newer snapshot).
  const landed = latestBotComment(issue, ctx, [SNAPSHOT_MARKER])?.body.includes(LANDING_MARKER) === true;
  if (snapshot?.hash === hash && !landed) {
    return decided("queued", `the snapshot ${hash.slice(0, 19)}… is current`, labelChanges(issue, [L.queued], [L.invalidBrief, L.hold]));
  }
  if (event.approvedBody !== undefined && normalize(event.approvedBody) !== normalize(issue.body)) {
    // The label approved the text the payload carries; the issue now says something else.
    return hold(issue, ctx, snapshot, parsed, "the issue changed after it was approved");
  }
  const body = renderSnapshotComment(parsed.brief, `Bosun froze this brief when **${event.sender}** approved it; later edits to the issue do not change it until it is approved again.`);
  return decided("queued", `new snapshot ${hash.slice(0, 19)}…`, [{ kind: "comment", body }, ...labelChanges(issue, [L.queued], [L.invalidBrief, L.hold])]);
}

function decideEdit(issue: IssueView, ctx: IntakeContext): IntakeDecision {
  const L = ctx.labels;
  if (issue.state !== "open") return ignored("the issue is closed");
  if (!has(issue, L.queued) && !has(issue, L.hold)) return ignored("the issue is not queued");
  const snapshot = latestSnapshot(issue, ctx);
  if (snapshot === undefined) return ignored("no snapshot by Bosun on the issue");
  const parsed = parseIssueBody(issue.body, { name: `issue #${issue.number}`, defaultId: String(issue.number) });
  if (parsed.ok && briefHash(parsed.brief) === snapshot.hash) return unchanged("the brief is the one frozen");
  return hold(issue, ctx, snapshot, parsed, "the brief changed after its snapshot");
}

function hold(issue: IssueView, ctx: IntakeContext, snapshot: BriefSnapshot | undefined, parsed: BriefResult, reason: string): IntakeDecision {
  const notice = renderHoldNotice(snapshot, parsed, `sha256:${sha256Hex(normalize(issue.body))}`, ctx.labels.ready);
  const previous = latestBotComment(issue, ctx, [HOLD_MARKER], snapshot === undefined ? undefined : SNAPSHOT_MARKER);
  const actions: IntakeAction[] = [];
  if (has(issue, ctx.labels.hold)) {
    // Already held: keep one notice current instead of a comment per keystroke-sized edit.
    if (previous === undefined) return unchanged("already held");
    if (previous.body !== notice) actions.push({ kind: "update-comment", commentId: previous.id, body: notice });
  } else {
    if (previous?.body !== notice) actions.push({ kind: "comment", body: notice });
    actions.push({ kind: "add-labels", labels: [ctx.labels.hold] });
  }
  return decided("held", reason, actions);
}

/** The latest snapshot written by the bot that still verifies (marker, one json block, hash). */
function latestSnapshot(issue: IssueView, ctx: IntakeContext): BriefSnapshot | undefined {
  for (let i = issue.comments.length - 1; i >= 0; i--) {
    const c = issue.comments[i] as IntakeComment;
    if (!byBot(c, ctx) || !c.body.trimStart().startsWith(SNAPSHOT_MARKER)) continue;
    const parsed = parseSnapshotComment(c.body, `comment ${c.id}`);
    // The latest one rules, as the gate reads it; a broken latest snapshot means there is none.
    return parsed.ok ? parsed.snapshot : undefined;
  }
  return undefined;
}

/** The bot's latest comment carrying one of `markers`, not older than its latest `after` comment. */
function latestBotComment(issue: IssueView, ctx: IntakeContext, markers: readonly string[], after?: string): IntakeComment | undefined {
  for (let i = issue.comments.length - 1; i >= 0; i--) {
    const c = issue.comments[i] as IntakeComment;
    if (!byBot(c, ctx)) continue;
    const body = c.body.trimStart();
    if (markers.some((m) => body.startsWith(m))) return c;
    if (after !== undefined && body.startsWith(after)) return undefined;
  }
  return undefined;
}

function leave(issue: IssueView, ctx: IntakeContext, remove: readonly string[], reason: string): IntakeDecision {
  const actions = labelChanges(issue, [], remove);
  return actions.length === 0 ? unchanged(`${reason}; nothing was queued`) : decided("left", reason, actions);
}

/** Adds what is missing, then removes what is present: nothing already true is done again. */
function labelChanges(issue: IssueView, add: readonly string[], remove: readonly string[]): IntakeAction[] {
  const missing = add.filter((l) => !has(issue, l));
  const actions: IntakeAction[] = missing.length === 0 ? [] : [{ kind: "add-labels", labels: missing }];
  for (const l of remove) if (has(issue, l)) actions.push({ kind: "remove-label", label: l });
  return actions;
}

function has(issue: IssueView, label: string): boolean {
  const want = label.toLowerCase();
  return issue.labels.some((l) => l.toLowerCase() === want);
}

function byBot(c: IntakeComment, ctx: IntakeContext): boolean {
  return c.authorIsBot && c.author.toLowerCase() === ctx.botLogin.toLowerCase();
}

function isBot(login: string, ctx: IntakeContext): boolean {
  return login.toLowerCase() === ctx.botLogin.toLowerCase();
}

/** Line endings and trailing space are not edits (GitHub stores what browsers send). */
function normalize(body: string): string {
  return body.replace(/\r\n?/g, "\n").trimEnd();
}

function decided(outcome: IntakeDecision["outcome"], reason: string, actions: IntakeAction[]): IntakeDecision {
  return { outcome, reason, actions: actions.length === 0 ? [noop(reason)] : actions };
}

function noop(reason: string): IntakeAction {
  return { kind: "noop", reason };
}

function ignored(reason: string): IntakeDecision {
  return { outcome: "ignored", reason, actions: [noop(reason)] };
}

function unchanged(reason: string): IntakeDecision {
  return { outcome: "unchanged", reason, actions: [noop(reason)] };
}
