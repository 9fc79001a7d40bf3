// A month of a small fleet, written by hand so every metric can be worked out on paper.
// Window used by the tests: --since 2026-11-01 --until 2026-11-30 = [Nov 1 00:00Z, Dec 1 00:00Z).
const at = (day: number, hour = 12) => `2026-11-${String(day).padStart(2, "0")}T${String(hour).padStart(2, "0")}:00:00.000Z`;
const ev = (fields: Record<string, unknown>) => JSON.stringify({ v: 1, ...fields });

export const HAND_MADE_JOURNAL: readonly string[] = [
  /*  1 */ ev({ t: "2026-10-31T23:59:59.999Z", event: "LAND", item: "old", class: "bugfix", ok: true, stop: { kind: "done" }, cost: { tokens: 999_999, usd: 99 } }), // before the window
  /*  2 */ ev({ t: "2026-11-01T00:00:00.000Z", event: "CLAIM", item: "a", class: "bugfix", holder: "w1", epoch: 1 }), // on `since`: counted
  /*  3 */ ev({ t: at(1), event: "DISPATCH", item: "a", epoch: 1, attempt: 1, tier: "standard" }),
  /*  4 */ ev({ t: at(2), event: "LAND", item: "a", epoch: 1, ok: true, stop: { kind: "done" }, cost: { tokens: 1000, usd: 0.5, wall_clock_s: 60 } }),
  /*  5 */ ev({ t: at(2, 13), event: "GATE", item: "a", verdict: "pass" }), // class from line 2: bugfix
  /*  6 */ ev({ t: at(3), event: "LAND", item: "b", class: "feature", ok: false, stop: { kind: "out_of_budget", limit: "steps" }, failure: "retry", cost: { tokens: 3000, usd: 1.5, wall_clock_s: 600 } }),
  /*  7 */ ev({ t: at(4), event: "LAND", item: "b", class: "feature", ok: true, stop: { kind: "done" }, cost: { tokens: 2000, usd: 1, wall_clock_s: 300 } }),
  /*  8 */ ev({ t: at(4, 13), event: "GATE", item: "b", class: "feature", verdict: "fail" }),
  /*  9 */ ev({ t: at(5), event: "GATE", item: "b", class: "feature", verdict: "pass" }), // b's latest gate: pass
  /* 10 */ ev({ t: at(6), event: "LAND", item: "c", class: "feature", ok: true, stop: { kind: "done" }, cost: { tokens: 500, usd: 0.25 } }), // no wall clock
  /* 11 */ ev({ t: at(6, 13), event: "GATE", item: "c", verdict: "fail" }), // class from line 10: feature
  /* 12 */ ev({ t: at(7), event: "LAND", item: "d", class: "docs", ok: false, stop: { kind: "out_of_budget", limit: "tokens" }, cost: { tokens: 4000, usd: 2, wall_clock_s: 900 } }),
  /* 13 */ ev({ t: at(8), event: "LAND", item: "d", class: "docs", ok: false, stop: { kind: "blocked", reason: "irreversible tool" } }), // no cost
  /* 14 */ ev({ t: at(9), event: "LAND", item: "e", ok: true, stop: { kind: "done" }, cost: { tokens: 1500, usd: 0.75, wall_clock_s: 120 } }), // never gated
  /* 15 */ ev({ t: at(10), event: "LAND", item: "f", ok: true, stop: { kind: "done" }, cost: { tokens: 100, usd: 0.05, wall_clock_s: 10 } }),
  /* 16 */ ev({ t: at(10, 13), event: "GATE", item: "f", class: "docs", verdict: "could-not-check" }),
  /* 17 */ ev({ t: at(11), event: "LAND", item: "g", ok: false, stop: { kind: "failed", failure: "retry", reason: "exit 75" }, failure: "retry", cost: { tokens: 900, usd: 0.45, wall_clock_s: 30 } }),
  /* 18 */ ev({ t: at(12), event: "LAND", item: "h", ok: false, stop: { kind: "out_of_budget" } }), // an old line: no limit
  /* 19 */ ev({ t: at(13), event: "LAND", item: "i", ok: true }), // no stop, no cost, never gated
  /* 20 */ ev({ t: at(14), event: "LAND", item: "j", ok: true, stop: { kind: "done" }, fenced: "epoch 2 holds j", cost: { tokens: 200, usd: 0.1, wall_clock_s: 20 } }),
  /* 21 */ "{not json",
  /* 22 */ ev({ t: at(15), event: "PING", item: "x" }),
  /* 23 */ JSON.stringify({ v: 2, t: at(15), event: "LAND", item: "x", ok: true }),
  /* 24 */ "",
  /* 25 */ ev({ t: at(15), event: "GATE", item: "z", class: "docs", verdict: "fail" }), // gated, never landed
  /* 26 */ ev({ t: "2026-12-01T00:00:00.000Z", event: "LAND", item: "late", ok: true, stop: { kind: "done" }, cost: { tokens: 777 } }), // on `until`: not counted
  /* 27 */ ev({ t: at(30, 23), event: "IDLE", holder: "w1", summary: "idle" }),
];
