import type { ClaimRecord } from "../claims/claim-record.js";
import type { GateFact } from "../engine/step-state.js";
import { describeStop } from "../stop/stop.js";

/** The first line of Bosun's one status comment on an item: the snapshot stays frozen, this one moves. */
export const STATUS_MARKER = "<!-- bosun:status -->";

/** Whether a comment body is a status comment (starts with the marker); says nothing of who wrote it. */
export const isStatusComment = (body: string): boolean => body.trimStart().startsWith(STATUS_MARKER);

/**
 * Whether a record says something the item's labels and the dashboard do not, so that the item's
 * status comment is posted if it has none (docs/lifecycle.md, "What you see on the issue"): a human
 * must act (refused, needs a human), an attempt ended and the item waits for another (back in the
 * queue), or the approval froze no brief. The happy path — queued, claimed, in review, done — is
 * said by the state label, the dashboard, the snapshot and GitHub's own links (the run, the pull
 * request, its checks, the merge), and posts no status comment: one content-creating request less
 * per item against GitHub's secondary limit.
 */
export function statusCalledFor(record: Pick<ClaimRecord, "state" | "outcome" | "briefHash">): boolean {
  switch (record.state) {
    case "settled":
      return record.outcome?.ok !== true;
    case "released":
      return true;
    case "approved":
      return record.briefHash === undefined;
    default:
      return false;
  }
}

/**
 * `next` with `statusComment` set: true once a status comment is called for (by its state, or
 * `called` for a reason the state does not carry, such as a changed brief; it stays so: the
 * comment, once there, is kept up to date), else what `previous` said. An item's first record has
 * none; one over a cleaned-up ref (`floor` above 0) may have one from an earlier life: unknown.
 */
export function markStatus(previous: ClaimRecord | undefined, next: ClaimRecord, floor = 0, called = statusCalledFor(next)): ClaimRecord {
  const { statusComment: _drop, ...rest } = next;
  const flag = called ? true : previous === undefined ? (floor > 0 ? undefined : false) : previous.statusComment;
  return flag === undefined ? rest : { ...rest, statusComment: flag };
}

/** What the status comment shows besides the record: the item's pull request and the gate on it, and where the item waits. */
export interface StatusExtras {
  readonly pull?: { readonly number: number; readonly state: "open" | "merged" | "closed" };
  readonly gate?: GateFact;
  /** Why an approved item is not running yet (a blocker, a full pool, a backoff, a changed brief). */
  readonly waiting?: string;
  /** The worker's run, when known. */
  readonly run?: string;
}

const HEADLINE: Readonly<Record<ClaimRecord["state"], string>> = {
  approved: "🕓 Queued",
  invalid: "⚠️ The brief is invalid",
  withdrawn: "⏹️ Withdrawn",
  held: "🏃 Claimed and dispatched",
  released: "🔁 Back in the queue",
  review: "🔎 Pull request open",
  merged: "🚢 Merged, waiting for a verified deployment",
  settled: "",
};

/**
 * The status comment for an item, from its record (docs/lifecycle.md): one line saying where it is,
 * then the facts that put it there. Rendered from the record alone (plus what the tick read about
 * its pull request), so any writer renders the same text and an unchanged state is not rewritten.
 */
export function renderStatusComment(record: ClaimRecord, extras: StatusExtras = {}): string {
  const settledLine = record.outcome?.ok === true ? "✅ Done" : record.outcome?.disposition === "refuse" ? "⛔ Refused: a human decides" : "🙋 Needs a human";
  // An approval that froze no brief (the issue was edited after it) queues nothing.
  const headline = record.state === "settled" ? settledLine : record.state === "approved" && record.briefHash === undefined ? "⏸️ Not queued: the issue was edited after it was approved" : HEADLINE[record.state];
  const lines = [STATUS_MARKER, `### ${headline}`, ""];
  const rows: Array<[string, string]> = [];
  if (record.approval !== undefined) rows.push(["approved by", `@${record.approval.by} at ${new Date(record.approval.at).toISOString()}`]);
  if (record.briefHash !== undefined) rows.push(["brief", `\`${record.briefHash.slice(0, 19)}…\` (the snapshot above)`]);
  if (record.epoch > 0) rows.push(["attempt", String(record.epoch)]);
  if (record.pool !== undefined && record.state === "held") rows.push(["pool", record.pool]);
  if (record.state === "held") rows.push(["lease until", new Date(record.leaseUntil).toISOString()]);
  if (extras.run !== undefined) rows.push(["run", extras.run]);
  const pull = extras.pull ?? (record.pull === undefined ? undefined : { number: record.pull, state: record.state === "merged" ? ("merged" as const) : ("open" as const) });
  if (pull !== undefined) rows.push(["pull request", `#${pull.number} (${pull.state})`]);
  if (extras.gate !== undefined) rows.push(["bosun/gate", `${extras.gate.verdict} at \`${extras.gate.sha.slice(0, 12)}\``]);
  if (record.merge !== undefined) rows.push(["merged as", `\`${record.merge.slice(0, 12)}\``]);
  if (extras.waiting !== undefined && (record.state === "approved" || record.state === "released")) rows.push(["waiting for", extras.waiting]);
  if (record.state === "released" && record.notBefore !== undefined && record.notBefore > record.at) rows.push(["not before", new Date(record.notBefore).toISOString()]);
  lines.push("| | |", "|---|---|", ...rows.map(([k, v]) => `| ${k} | ${cell(v)} |`));
  const landing = record.landing;
  if (landing !== undefined) {
    lines.push("", `**Latest landing** (attempt ${record.epoch}, by ${cell(landing.by)}): ${cell(describeStop(landing.stop))} → ${landing.disposition}`);
    if (record.outcome !== undefined && record.outcome.summary !== describeStop(landing.stop)) lines.push("", cell(record.outcome.summary));
    if (landing.evidence !== undefined) {
      lines.push("", `Evidence: \`${cell(landing.evidence.command)}\` exited ${landing.evidence.exit ?? "by signal"}`);
      if (landing.evidence.lines.length > 0) lines.push("", "```text", ...landing.evidence.lines.map((l) => l.replace(/```/g, "ˋˋˋ")), "```");
    }
  } else if (record.outcome !== undefined) {
    lines.push("", cell(record.outcome.summary));
  }
  if (extras.gate !== undefined && extras.gate.verdict !== "pass") lines.push("", `The gate says: ${cell(extras.gate.reason)}`);
  return `${lines.join("\n")}\n`;
}

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ").slice(0, 2000);
