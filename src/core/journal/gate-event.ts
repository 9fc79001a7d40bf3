import type { JournalEvent } from "./journal-event.js";

/** A GATE event as its writer gives it (the emitter stamps the version and time). */
export type GateEventFields = Omit<Extract<JournalEvent, { event: "GATE" }>, "v" | "t">;

/**
 * The GATE event of one gate run (DESIGN.md, "Journal"): which item, its task class, the commit
 * judged and the verdict. Every face that runs the gate journals it through this one shape, so
 * `bosun stats` and the dashboard count the same thing.
 */
export function gateEvent(input: { item: string; class: string; sha: string; verdict: "pass" | "fail" | "could-not-check"; by: GateEventFields["by"] }): GateEventFields {
  return { event: "GATE", item: input.item, class: input.class, sha: input.sha, verdict: input.verdict, by: input.by };
}
