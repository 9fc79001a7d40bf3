/**
 * The local spend ledger under contention: two ledgers over one state folder (two drains) reserving
 * at once never reserve past the cap between them, whatever the interleaving; a lock left by a
 * drain that died is broken; a ledger that cannot be read stops the drain instead of guessing.
 */
import { mkdir, mkdtemp, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSpendLedger, SpendLedgerError } from "../../../src/adapters/local/file-spend-ledger.js";
import type { BudgetCap } from "../../../src/core/budget/budget-cap.js";

const M = 1_000_000;
const cap: BudgetCap = { name: "--budget-usd", window: "day", micros: 10 * M };
const NOW = Date.UTC(2026, 11, 3, 12);

describe("the file spend ledger", () => {
  it("two drains reserving at once never pass the cap between them", async () => {
    for (let round = 0; round < 5; round++) {
      const stateDir = await mkdtemp(join(tmpdir(), "bosun-ledger-"));
      const ledgers = [new FileSpendLedger({ stateDir, caps: [cap], holder: "d1" }), new FileSpendLedger({ stateDir, caps: [cap], holder: "d2" })];
      const asks = Array.from({ length: 40 }, (_, i) => ({ ledger: ledgers[i % 2] as FileSpendLedger, micros: ((i * 7919) % 9) * 0.1 * M + 0.3 * M }));
      const results = await Promise.all(asks.map((a, i) => a.ledger.reserve({ item: `i${i}`, pool: "local", micros: a.micros }, NOW)));
      const granted = asks.filter((_, i) => results[i]?.ok === true).reduce((s, a) => s + a.micros, 0);
      expect(granted).toBeLessThanOrEqual(cap.micros);
      expect(granted).toBeGreaterThan(cap.micros - 1.2 * M);
      expect((await ledgers[0]?.rooms(NOW))?.[0]?.used).toBe(granted);
    }
  });

  it("settles to the reported cost, keeps the reservation when nothing was reported, and gives a cancel back", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), "bosun-ledger-"));
    const ledger = new FileSpendLedger({ stateDir, caps: [cap], holder: "d" });
    const a = await ledger.reserve({ item: "a", pool: "local", micros: 4 * M }, NOW);
    const b = await ledger.reserve({ item: "b", pool: "local", micros: 4 * M }, NOW);
    const c = await ledger.reserve({ item: "c", pool: "local", micros: 2 * M }, NOW);
    if (!a.ok || !b.ok || !c.ok) throw new Error("expected three reservations");
    expect((await ledger.settle(a.ticket, 1 * M, NOW))[0]?.used).toBe(7 * M);
    expect((await ledger.settle(b.ticket, undefined, NOW))[0]?.used).toBe(7 * M);
    expect((await ledger.cancel(c.ticket, NOW))[0]?.used).toBe(5 * M);
    // Tomorrow's window starts from nothing.
    expect((await ledger.rooms(NOW + 86_400_000))[0]?.used).toBe(0);
  });

  it("breaks a lock its holder left behind, and refuses a ledger it cannot read", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), "bosun-ledger-"));
    await mkdir(join(stateDir, "budget"));
    const lock = join(stateDir, "budget", "ledger.lock");
    await writeFile(lock, "");
    const old = new Date(Date.now() - 120_000);
    await utimes(lock, old, old);
    const ledger = new FileSpendLedger({ stateDir, caps: [cap], holder: "d" });
    expect((await ledger.reserve({ item: "a", pool: "local", micros: M }, NOW)).ok).toBe(true);
    await writeFile(join(stateDir, "budget", "ledger.json"), "{not json");
    await expect(ledger.rooms(NOW)).rejects.toBeInstanceOf(SpendLedgerError);
  });

  it("stores the runs in flight and each day's spend, not every run: the file stays small however many runs a day sees", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), "bosun-ledger-"));
    const ledger = new FileSpendLedger({ stateDir, caps: [cap], holder: "d" });
    const sizes: number[] = [];
    for (let i = 0; i < 60; i++) {
      const r = await ledger.reserve({ item: `i${i}`, pool: "local", micros: 0.1 * M }, NOW + i);
      if (!r.ok) throw new Error("expected a reservation");
      await ledger.settle(r.ticket, 0.05 * M, NOW + i);
      sizes.push((await stat(join(stateDir, "budget", "ledger.json"))).size);
    }
    // One run's entry alone would take about a hundred bytes: sixty of them, thousands.
    expect(Math.max(...sizes)).toBeLessThan(120);
    expect(JSON.parse(await readFile(join(stateDir, "budget", "ledger.json"), "utf8"))).toEqual({ v: 2, reservations: [], spent: [{ pool: "local", day: "2026-12-03", micros: 3 * M }] });
    expect((await ledger.rooms(NOW))[0]?.used).toBe(3 * M);
  });

  it("reads a ledger an earlier Bosun wrote (every run an entry) and counts it the same", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), "bosun-ledger-"));
    await mkdir(join(stateDir, "budget"));
    const entries = [
      { ticket: "old:a:1", item: "a", pool: "local", at: NOW - 3_600_000, micros: 2 * M, settled: true },
      { ticket: "old:b:2", item: "b", pool: "local", at: NOW - 60_000, micros: 1 * M, settled: false },
    ];
    await writeFile(join(stateDir, "budget", "ledger.json"), JSON.stringify({ v: 1, entries }));
    const ledger = new FileSpendLedger({ stateDir, caps: [cap], holder: "d" });
    expect((await ledger.rooms(NOW))[0]?.used).toBe(3 * M);
    // The run in flight that the old drain reserved settles in the new ledger.
    expect((await ledger.settle("old:b:2", 0.5 * M, NOW))[0]?.used).toBe(2.5 * M);
    expect(JSON.parse(await readFile(join(stateDir, "budget", "ledger.json"), "utf8"))).toMatchObject({ v: 2, reservations: [] });
  });
});
