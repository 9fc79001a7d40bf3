/** The reservation rule and the caps it is checked against, as tables (DESIGN.md, "Budgets"). */
import { describe, expect, test } from "vitest";
import { reservationFor } from "../../../src/core/budget/reservation-for.js";
import { capExceeded, type CapRoom } from "../../../src/core/budget/cap-room.js";
import { windowEnd, windowStart, type BudgetCap } from "../../../src/core/budget/budget-cap.js";
import { SpendBook } from "../../../src/core/budget/spend-book.js";
import { capsFromConfig } from "../../../src/core/budget/caps-from-config.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";

const M = 1_000_000;

describe("what an item reserves", () => {
  const cases: Array<{ name: string; input: Parameters<typeof reservationFor>[0]; out: { micros: number; source: string } | "refused" }> = [
    { name: "its brief's budget.usd comes first, whatever else is known", input: { brief: 3 * M, itemCap: 1 * M, p90: 0.2 * M }, out: { micros: 3 * M, source: "brief" } },
    { name: "a brief below its pool's per-item cap still reserves only its own figure", input: { brief: 0.1 * M, itemCap: 1 * M }, out: { micros: 0.1 * M, source: "brief" } },
    { name: "without one, its pool's per-item cap", input: { itemCap: 1 * M, p90: 0.2 * M }, out: { micros: 1 * M, source: "item-cap" } },
    { name: "without either, the observed p90 of its task class", input: { p90: 0.2 * M, taskClass: "bugfix" }, out: { micros: 0.2 * M, source: "p90" } },
    { name: "a p90 of nothing is a figure: runs of the class were free", input: { p90: 0 }, out: { micros: 0, source: "p90" } },
    { name: "with nothing at all it is refused", input: { taskClass: "bugfix" }, out: "refused" },
  ];
  test.each(cases)("$name", ({ input, out }) => {
    const r = reservationFor(input);
    if (out === "refused") {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/no cost to reserve.*budget\.usd.*per-item cap.*task class 'bugfix'/);
    } else expect(r).toEqual({ ok: true, ...out });
  });
});

describe("whether a reservation fits", () => {
  const day: BudgetCap = { name: "fleet-day", window: "day", micros: 10 * M };
  const poolDay: BudgetCap = { name: "fast-day", window: "day", micros: 4 * M, pool: "fast" };
  const room = (cap: BudgetCap, used: number): CapRoom => ({ cap, used, resetsAt: 86_400_000 });
  const cases: Array<{ name: string; rooms: CapRoom[]; pool: string; micros: number; extra?: number[]; held: string | undefined; left?: number }> = [
    { name: "under every cap: dispatched", rooms: [room(day, 2 * M), room(poolDay, 1 * M)], pool: "fast", micros: 3 * M, held: undefined },
    { name: "exactly to the cap: dispatched (the cap is reachable, never passed)", rooms: [room(day, 7 * M)], pool: "slow", micros: 3 * M, held: undefined },
    { name: "one micro-dollar past the fleet cap: held by it", rooms: [room(day, 7 * M + 1)], pool: "slow", micros: 3 * M, held: "fleet-day", left: 3 * M - 1 },
    { name: "the pool's own cap holds its items", rooms: [room(day, 0), room(poolDay, 2 * M)], pool: "fast", micros: 3 * M, held: "fast-day", left: 2 * M },
    { name: "another pool's cap does not hold it", rooms: [room(day, 0), room(poolDay, 4 * M)], pool: "slow", micros: 3 * M, held: undefined },
    { name: "what this step already reserved counts (two claims never share the last room)", rooms: [room(day, 5 * M)], pool: "slow", micros: 3 * M, extra: [3 * M], held: "fleet-day", left: 2 * M },
    { name: "a cap spent past its figure (an agent that overran) has nothing left, not less than nothing", rooms: [room(day, 12 * M)], pool: "slow", micros: 0, held: "fleet-day", left: 0 },
  ];
  test.each(cases)("$name", ({ rooms, pool, micros, extra, held, left }) => {
    const hold = capExceeded(rooms, pool, micros, extra);
    expect(hold?.cap).toBe(held);
    if (left !== undefined) expect(hold?.left).toBe(left);
  });
});

describe("windows", () => {
  const cases = [
    { name: "a day starts at midnight UTC", at: Date.UTC(2026, 11, 3, 23, 59), window: "day" as const, start: Date.UTC(2026, 11, 3), end: Date.UTC(2026, 11, 4) },
    { name: "a week starts on Monday (a Thursday's week)", at: Date.UTC(2026, 11, 3, 15), window: "week" as const, start: Date.UTC(2026, 10, 30), end: Date.UTC(2026, 11, 7) },
    { name: "a Monday at midnight starts its own week", at: Date.UTC(2026, 10, 30), window: "week" as const, start: Date.UTC(2026, 10, 30), end: Date.UTC(2026, 11, 7) },
    { name: "a Sunday is the end of the week before", at: Date.UTC(2026, 11, 6, 23), window: "week" as const, start: Date.UTC(2026, 10, 30), end: Date.UTC(2026, 11, 7) },
  ];
  test.each(cases)("$name", ({ at, window, start, end }) => {
    expect(windowStart(at, window)).toBe(start);
    expect(windowEnd(at, window)).toBe(end);
  });
});

describe("the spend book", () => {
  const cap: BudgetCap = { name: "day", window: "day", micros: 5 * M };
  const at = Date.UTC(2026, 11, 3, 12);
  const entry = (ticket: string, micros: number, when = at) => ({ ticket, item: ticket, pool: "p", at: when, micros });

  test("a reported cost replaces the reservation; no report keeps it as spent; a cancel gives it back", () => {
    const book = new SpendBook();
    expect(book.reserveWithin([cap], entry("a", 2 * M))).toBeUndefined();
    expect(book.reserveWithin([cap], entry("b", 2 * M))).toBeUndefined();
    expect(book.reserveWithin([cap], entry("c", 2 * M))?.left).toBe(1 * M);
    book.settle("a", 0.5 * M);
    expect(book.rooms([cap], at)[0]?.used).toBe(2.5 * M);
    book.settle("b", undefined);
    expect(book.rooms([cap], at)[0]?.used).toBe(2.5 * M);
    expect(book.reserveWithin([cap], entry("c", 2 * M))).toBeUndefined();
    expect(book.cancel("c")).toBe(true);
    expect(book.rooms([cap], at)[0]?.used).toBe(2.5 * M);
    // Settling twice changes nothing: the first report stands.
    book.settle("a", 4 * M);
    expect(book.rooms([cap], at)[0]?.used).toBe(2.5 * M);
  });

  test("yesterday's spend does not count against today's cap, but does against the week's", () => {
    const week: BudgetCap = { name: "week", window: "week", micros: 6 * M };
    const book = new SpendBook([{ ...entry("old", 4 * M, at - 86_400_000), settled: true }]);
    expect(book.rooms([cap, week], at).map((r) => r.used)).toEqual([0, 4 * M]);
    expect(book.reserveWithin([cap, week], entry("new", 3 * M))?.cap).toBe("week");
  });
});

describe("budgets in the configuration", () => {
  test("every cap is named where it is written, and a pool's item cap falls back to the fleet's", () => {
    const parsed = parseConfig("pools:\n  fast: {size: 2, dispatch: {kind: label, label: go}}\n  slow: {size: 1, dispatch: {kind: label, label: go}}\nbudgets:\n  fleet: {day_usd: 50, week_usd: 200}\n  item_usd: 2\n  pools:\n    fast: {day_usd: 20, item_usd: 0.5}\n");
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const b = capsFromConfig(parsed.config.budgets);
    expect(b.caps.map((c) => `${c.name} ${c.window} ${c.micros} ${c.pool ?? "*"}`)).toEqual(["budgets.fleet.day_usd day 50000000 *", "budgets.fleet.week_usd week 200000000 *", "budgets.pools.fast.day_usd day 20000000 fast"]);
    expect([b.itemCap("fast"), b.itemCap("slow")]).toEqual([0.5 * M, 2 * M]);
  });

  test.each([
    ["budgets:\n  fleet: {day_usd: -1}\n", "budgets.fleet.day_usd", "must be above 0"],
    ["budgets:\n  fleet: {week_usd: ten}\n", "budgets.fleet.week_usd", "must be a number of US dollars"],
    ["budgets:\n  item_usd: 1e12\n", "budgets.item_usd", "implausibly large"],
    ["budgets:\n  fleet: {dayusd: 3}\n", "budgets.fleet.dayusd", "unknown field"],
    ["budgets:\n  pools:\n    ghost: {day_usd: 3}\n", "budgets.pools.ghost", "no pool named 'ghost'"],
  ])("a bad value names its field: %s", (text, field, message) => {
    const parsed = parseConfig(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems).toContainEqual({ field, message: expect.stringContaining(message) });
  });
});

describe("budget.usd in a brief", () => {
  const brief = (budget: string) => `goal: g\nconstraints: {paths: [a]}\nacceptance: {command: "true"}\nsize_cap: 3\nbudget: ${budget}\n`;
  test.each([
    ["{usd: -1}", "must be above 0"],
    ["{usd: 0}", "must be above 0"],
    ["{usd: lots}", "must be a number of US dollars"],
    ["{usd: 1e9}", "implausibly large"],
  ])("%s is refused, naming budget.usd", async (budget, message) => {
    const { parseBriefYaml } = await import("../../../src/core/brief/parse-brief.js");
    const r = parseBriefYaml(brief(budget), { name: "x.yml", defaultId: "x" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems).toContainEqual({ field: "budget.usd", message: expect.stringContaining(message), source: "x.yml" });
  });

  test("a valid one joins the other budgets, and a brief without one hashes as before", async () => {
    const { parseBriefYaml, briefHash } = await import("../../../src/core/brief/parse-brief.js");
    const r = parseBriefYaml(brief("{usd: 2.5, steps: 10}"), { name: "x.yml", defaultId: "x" });
    expect(r.ok && r.brief.budget).toEqual({ wall_clock: 1800, steps: 10, tokens: 2_000_000, tool_errors: 5, usd: 2.5 });
    const without = parseBriefYaml(brief("{steps: 10}"), { name: "x.yml", defaultId: "x" });
    expect(without.ok && "usd" in without.brief.budget).toBe(false);
    if (without.ok) expect(briefHash(without.brief)).not.toContain("usd");
  });
});
