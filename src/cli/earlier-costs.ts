import { toMicros } from "../core/budget/budget-cap.js";

/**
 * What each item's earlier runs reported costing (micro-dollars), from the LAND events of a
 * journal: the observed p90 of a task class starts from them. Lines that do not parse are skipped
 * (a torn last line of a journal another drain is writing; `bosun stats` names the others).
 */
export function earlierCosts(journalText: string): Map<string, number[]> {
  const costs = new Map<string, number[]>();
  for (const line of journalText.split("\n")) {
    if (!line.includes('"LAND"') || !line.includes('"usd"')) continue;
    try {
      const e = JSON.parse(line) as { event?: unknown; item?: unknown; cost?: { usd?: unknown } };
      const usd = e.cost?.usd;
      if (e.event !== "LAND" || typeof e.item !== "string" || typeof usd !== "number" || !Number.isFinite(usd) || usd < 0) continue;
      const list = costs.get(e.item) ?? [];
      list.push(toMicros(usd));
      costs.set(e.item, list);
    } catch {
      // not a whole line
    }
  }
  return costs;
}
