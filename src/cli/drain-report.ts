import { CLAIMED_FOR_ANOTHER_BRIEF, SETTLED_FOR_ANOTHER_BRIEF } from "../adapters/local/read-key-folder.js";
import type { FinalStatus } from "../core/engine/engine-loop.js";
import type { JournalEvent } from "../core/journal/journal-event.js";
import { traceLine } from "../core/journal/trace-line.js";
import { terminalText } from "./terminal-text.js";

/** An item's last landing in earlier drains over the same state folder, from its journal. */
export interface EarlierLand {
  readonly t: string;
  readonly epoch: number;
  readonly ok: boolean;
}

/** The last LAND per item in a journal's text (lines that do not parse are someone else's problem: `bosun stats`). */
export function earlierLands(journalText: string): Map<string, EarlierLand> {
  const lands = new Map<string, EarlierLand>();
  for (const line of journalText.split("\n")) {
    if (!line.includes('"LAND"')) continue;
    try {
      const e = JSON.parse(line) as { event?: unknown; item?: unknown; t?: unknown; epoch?: unknown; ok?: unknown };
      if (e.event === "LAND" && typeof e.item === "string" && typeof e.t === "string" && typeof e.epoch === "number") lands.set(e.item, { t: e.t, epoch: e.epoch, ok: e.ok === true });
    } catch {
      // a torn last line of a journal another drain is writing
    }
  }
  return lands;
}

/** `2026-12-01T15:58:03.120Z` as `2026-12-01 15:58 UTC`. */
const shortTime = (iso: string): string => iso.replace(/^(\d{4}-\d\d-\d\d)T(\d\d:\d\d).*$/, "$1 $2 UTC");

/**
 * One line per journal event for the terminal: the trace lines of docs/cli.md (`CLAIM x`,
 * `LAND x ok=true`, `IDLE — stop`), except denials, which say in words what happened and
 * what, if anything, is left to do. Item names come from file names: escaped.
 */
export function drainLine(event: JournalEvent, earlier: ReadonlyMap<string, EarlierLand>): string {
  if (event.event !== "DENY") return terminalText(traceLine(event));
  const item = terminalText(event.item);
  const detail = terminalText(event.detail);
  switch (event.reason) {
    case "not-ready": {
      if (event.detail.startsWith(SETTLED_FOR_ANOTHER_BRIEF) || event.detail.startsWith(CLAIMED_FOR_ANOTHER_BRIEF)) return `${item}: not run: ${detail}`;
      if (!event.detail.startsWith("settled:")) return `${item}: waiting (${detail})`;
      const before = earlier.get(event.item);
      const when = before === undefined ? "" : ` (run ${shortTime(before.t)}, epoch ${before.epoch})`;
      const outcome = event.detail.slice("settled:".length).trim();
      return outcome === "done" || before?.ok === true ? `${item}: already done${when}; nothing to do` : `${item}: already landed${when}: ${terminalText(outcome)}; nothing to do`;
    }
    case "held":
      return `${item}: another drain holds it (${detail}); waiting for it`;
    case "similar":
      return `${item}: not claimed: too similar to other work (${detail}); a person decides whether it is the same`;
    case "evidence":
      return `${item}: not claimed: ${detail}`;
  }
}

/** What the drain saw happen, collected from its events, for the summary at idle. */
export class DrainTally {
  private readonly ran = new Map<string, number>();
  private readonly alreadyDone = new Set<string>();

  observe(event: JournalEvent): void {
    if (event.event === "DISPATCH") this.ran.set(event.item, event.epoch);
    if (event.event === "DENY" && event.reason === "not-ready" && event.detail.startsWith("settled:")) this.alreadyDone.add(event.item);
  }

  /**
   * The lines that end a drain: how many ran, how many ended ok, failed or need a human, where
   * their logs are, and what to run next. `runsDir` is undefined for a dry run (nothing is written).
   */
  /** The summary as data, for `--json`: counts, then each item that did not end ok, with its log. */
  summaryJson(input: { items: ReadonlyMap<string, FinalStatus>; invalid: ReadonlySet<string>; runsDir?: string; journal?: string }): Record<string, unknown> {
    const by = (status: FinalStatus["status"]) => [...input.items].filter(([id, s]) => s.status === status && !this.alreadyDone.has(id) && !input.invalid.has(id));
    const rows = (status: FinalStatus["status"]) =>
      by(status).map(([id, s]) => {
        const epoch = this.ran.get(id);
        return { item: id, summary: s.summary, ...(input.runsDir === undefined || epoch === undefined ? {} : { log: `${input.runsDir}/${encodeURIComponent(id)}.e${epoch}/output.log` }) };
      });
    return {
      ran: this.ran.size,
      ok: by("ok").filter(([id]) => this.ran.has(id)).length,
      failed: rows("refused"),
      needs_human: rows("needs-human"),
      blocked: rows("blocked"),
      not_claimed: rows("denied"),
      held_by_budget: rows("held"),
      already_done: [...this.alreadyDone],
      invalid: [...input.invalid],
      ...(input.journal === undefined ? {} : { journal: input.journal }),
    };
  }

  summary(input: { items: ReadonlyMap<string, FinalStatus>; invalid: ReadonlySet<string>; runsDir?: string; journal?: string; rerun: string; dryRun?: boolean }): string[] {
    const by = (status: FinalStatus["status"]) => [...input.items].filter(([id, s]) => s.status === status && !this.alreadyDone.has(id) && !input.invalid.has(id));
    const ok = by("ok").filter(([id]) => this.ran.has(id));
    const failed = by("refused");
    const human = by("needs-human");
    const blocked = by("blocked");
    const denied = by("denied");
    const held = by("held");
    const parts = [`${this.ran.size} ran`, `${ok.length} ok`, `${failed.length} failed`, `${human.length} need${human.length === 1 ? "s" : ""} a human`];
    if (blocked.length > 0) parts.push(`${blocked.length} blocked`);
    if (denied.length > 0) parts.push(`${denied.length} not claimed`);
    if (held.length > 0) parts.push(`${held.length} held by budget`);
    if (this.alreadyDone.size > 0) parts.push(`${this.alreadyDone.size} already done`);
    if (input.invalid.size > 0) parts.push(`${input.invalid.size} invalid`);
    const out = [`Summary: ${parts.join(", ")}.`];
    const log = (id: string): string => {
      const epoch = this.ran.get(id);
      return input.runsDir === undefined || epoch === undefined ? "" : ` (log: ${input.runsDir}/${encodeURIComponent(id)}.e${epoch}/output.log)`;
    };
    for (const [label, rows] of [["failed", failed], ["needs a human", human], ["blocked", blocked], ["not claimed", denied], ["queued", held]] as const) {
      for (const [id, s] of rows) out.push(`  ${label}: ${terminalText(id)}: ${terminalText(s.summary)}${log(id)}`);
    }
    for (const id of input.invalid) out.push(`  invalid: ${terminalText(id)} (its problems are listed above)`);
    if (input.runsDir !== undefined && this.ran.size > 0) out.push(`Logs: ${input.runsDir}/<item>.e<epoch>/output.log; journal: ${input.journal ?? "(none)"}.`);
    const next = this.next(failed.length + human.length + blocked.length + denied.length, input.invalid.size, input.rerun, held.length);
    // A dry run ran nothing: its next step is the real run.
    out.push(`Next: ${input.dryRun === true && input.invalid.size === 0 ? "run them for real: bosun drain --run CMD (a worker command; see bosun help drain)." : next}`);
    return out;
  }

  private next(unsettled: number, invalid: number, rerun: string, held = 0): string {
    if (invalid > 0) return `fix the invalid briefs (bosun brief check FILE shows each problem), then run '${rerun}' again.`;
    if (unsettled > 0) return `read the logs above; once fixed, remove an item's claim folder (<state>/claims/<key>/) and run '${rerun}' again.`;
    if (held > 0) return `${held === 1 ? "the item held by budget waits" : `the ${held} items held by budget wait`} for money: run '${rerun}' again once the cap's window resets, or with a higher --budget-usd.`;
    if (this.ran.size === 0 && this.alreadyDone.size > 0) return "nothing; add a brief to the folder, or remove an item's claim folder (<state>/claims/<key>/) to run it again.";
    return "nothing; every brief landed ok.";
  }
}

/**
 * Worker output on the terminal, each line prefixed with its item (`[x] line`), whole lines only
 * so that several workers never share one; control characters escaped.
 */
export function prefixedOutput(write: (text: string) => void): { chunk(item: string, text: string): void; flush(item: string): void } {
  const partial = new Map<string, string>();
  const emit = (item: string, line: string) => write(`[${terminalText(item)}] ${terminalText(line.replace(/\r$/, ""))}\n`);
  return {
    chunk(item, text) {
      const lines = `${partial.get(item) ?? ""}${text}`.split("\n");
      partial.set(item, lines.pop() ?? "");
      for (const line of lines) emit(item, line);
    },
    flush(item) {
      const rest = partial.get(item);
      partial.delete(item);
      if (rest !== undefined && rest !== "") emit(item, rest);
    },
  };
}
