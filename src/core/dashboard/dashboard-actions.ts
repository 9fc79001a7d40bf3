/**
 * What a maintainer can do from the dashboard by ticking a box, as Renovate's Dependency Dashboard
 * does (docs.renovatebot.com/key-concepts/dashboard/): each box carries a hidden marker naming the
 * action and the issue, `- [ ] <!-- bosun:retry=12 --> …`, and the App acts on the boxes an edit
 * ticked, then clears them. Every action is a change of the item's labels, which the scheduler's
 * next tick follows:
 *
 * - `retry`   an item that needs a human goes back to the queue with its frozen brief;
 * - `requeue` a landed item (done) is queued to run again, with its frozen brief;
 * - `hold`    a queued item is held: nothing dispatches it until it is released;
 * - `release` a held item is released: its frozen brief (never an edited text) runs.
 */
export const DASHBOARD_ACTIONS = ["retry", "requeue", "hold", "release"] as const;
export type DashboardAction = (typeof DASHBOARD_ACTIONS)[number];

export interface DashboardTick {
  readonly action: DashboardAction;
  readonly issue: number;
}

const BOX = /^(\s*(?:[-*+]|\d+[.)])\s+\[)([ xX])(\]\s+<!-- bosun:(retry|requeue|hold|release)=(\d{1,10}) -->)/;

/** The unticked box for an action, as the dashboard renders it. */
export function actionBox(action: DashboardAction, issue: number): string {
  return `[ ] <!-- bosun:${action}=${issue} -->`;
}

/** The boxes ticked in a dashboard body, in order, each once. */
export function tickedActions(body: string): DashboardTick[] {
  const seen = new Set<string>();
  const ticks: DashboardTick[] = [];
  for (const line of body.split("\n")) {
    const m = BOX.exec(line);
    if (m === null || m[2] === " ") continue;
    const tick = { action: m[4] as DashboardAction, issue: Number(m[5]) };
    const key = `${tick.action}=${tick.issue}`;
    if (!seen.has(key)) ticks.push(tick);
    seen.add(key);
  }
  return ticks;
}

/** The body with the given boxes cleared (all others left as they are). */
export function untick(body: string, ticks: readonly DashboardTick[]): string {
  const clear = new Set(ticks.map((t) => `${t.action}=${t.issue}`));
  return body
    .split("\n")
    .map((line) => {
      const m = BOX.exec(line);
      return m !== null && clear.has(`${m[4]}=${m[5]}`) ? line.replace(BOX, `$1 $3`) : line;
    })
    .join("\n");
}

/** Bosun's label names, as the repository configured them. */
export interface ActionLabels {
  readonly queued: string;
  readonly claimed: string;
  readonly done: string;
  readonly needsHuman: string;
  readonly hold: string;
}

/**
 * The labels to add and remove for the action (hold, release), the record to write (retry,
 * requeue), or why it does not apply to the item as it is now
 * (it already happened, or the item moved on): then nothing is written, which is what makes a
 * repeated webhook harmless. Adds and removals, not a new label set, so a label someone else
 * changes in the same second is not lost; the app ticks the scheduler once the boxes are cleared.
 */
export function planAction(action: DashboardAction, item: { readonly open: boolean; readonly labels: readonly string[] }, L: ActionLabels): { readonly add: string[]; readonly remove: string[] } | { readonly record: "retry" | "requeue" } | { readonly skip: string } {
  if (!item.open) return { skip: "the issue is closed" };
  const has = (l: string) => item.labels.includes(l);
  switch (action) {
    case "retry":
      // The queue is Bosun's records, not labels: a retry is a record Bosun writes (the item back
      // in the queue under its approval), for someone the approval rule lets approve it.
      if (!has(L.needsHuman)) return { skip: `it is not labelled ${L.needsHuman}` };
      return { record: "retry" };
    case "requeue":
      if (!has(L.done)) return { skip: `it is not labelled ${L.done}` };
      return { record: "requeue" };
    case "hold":
      if (has(L.claimed)) return { skip: "it is in flight" };
      if (!has(L.queued)) return { skip: `it is not labelled ${L.queued}` };
      if (has(L.hold)) return { skip: "it is held already" };
      return { remove: [], add: [L.hold] };
    case "release":
      if (!has(L.hold)) return { skip: "it is not held" };
      return { remove: [L.hold], add: [] };
  }
}
