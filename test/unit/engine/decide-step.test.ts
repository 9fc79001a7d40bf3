/** The one decision step, as a table: state in, decisions out (the rules both faces share). */
import fc from "fast-check";
import { describe, expect, it, test } from "vitest";
import { decideGrant } from "../../../src/core/engine/decide-held.js";
import { decideStep } from "../../../src/core/engine/decide-step.js";
import type { Decision } from "../../../src/core/engine/decision.js";
import type { HeldClaim, ReadyItem, StepOptions } from "../../../src/core/engine/step-state.js";
import { exponentialBackoff } from "../../../src/core/engine/engine-options.js";

const NOW = 1_000_000;
const LEASE = 90_000;
const options: StepOptions = { maxAttempts: 3, backoffMs: exponentialBackoff(1000, 300_000), poolSize: (p) => ({ a: 2, b: 1, none: 0 })[p] ?? 0, pools: ["a", "b", "none"] };
const held = (over: Partial<HeldClaim> = {}): HeldClaim => ({ id: "x", epoch: 1, holder: "h", leaseUntil: NOW + LEASE, leaseMs: LEASE, pool: "a", worker: { kind: "unseen" }, ...over });
const short = (d: Decision): string => {
  switch (d.kind) {
    case "land":
      return `land ${d.id} ${d.landing.disposition}${d.revive ? " revive" : ""}${d.landing.mode.kind === "retry" ? ` retry@+${d.landing.mode.notBefore - NOW}` : ""}`;
    case "renew":
      return `renew ${d.id}${d.revive ? " revive" : ""}`;
    case "reclaim":
      return `reclaim ${d.id}`;
    case "settle-to-human":
      return `human ${d.id}`;
    case "claim":
      return `claim ${d.id}/${d.pool}${d.reserve === undefined ? "" : ` $${d.reserve / 1e6}`}`;
    case "hold":
      return `hold ${d.id} ${d.hold.cap}`;
    case "refuse":
      return `refuse ${d.id}`;
    case "paused":
      return `paused${d.hold === undefined ? "" : ` ${d.hold.cap}`}`;
    case "dispatch":
      return `dispatch ${d.id}`;
    case "advance":
      return d.to === "merged" ? `merged ${d.id}` : `advance ${d.id} ${d.landing.disposition}`;
    case "idle":
      return "idle";
  }
};
const step = (state: Partial<Parameters<typeof decideStep>[0]>): string[] => decideStep({ now: NOW, held: [], ready: [], ...state }, options).map(short);

describe("decideStep", () => {
  const cases: Array<{ name: string; state: Partial<Parameters<typeof decideStep>[0]>; out: string[] }> = [
    { name: "a finished run lands its claim", state: { held: [held({ worker: { kind: "ended", stop: { kind: "done" } } })] }, out: ["land x ok", "idle"] },
    { name: "a run that finished after its lease lapsed (nobody took it) is revived and landed", state: { held: [held({ leaseUntil: NOW - 1, worker: { kind: "ended", stop: { kind: "done" } } })] }, out: ["land x ok revive", "idle"] },
    { name: "a retryable failure goes back with the one backoff of its attempt", state: { held: [held({ epoch: 2, worker: { kind: "ended", stop: { kind: "failed", failure: "retry", reason: "flaky" } } })] }, out: ["land x retry retry@+2000"] },
    { name: "a retryable failure on the last attempt goes to a human", state: { held: [held({ epoch: 3, worker: { kind: "ended", stop: { kind: "failed", failure: "retry", reason: "flaky" } } })] }, out: ["land x human", "idle"] },
    { name: "a live run before a third of its lease is left alone", state: { held: [held({ leaseUntil: NOW + LEASE - 1000, worker: { kind: "live" } })] }, out: [] },
    { name: "a live run renews once a third of its lease has passed, not only in the last third", state: { held: [held({ leaseUntil: NOW + (LEASE * 2) / 3, worker: { kind: "live" } })] }, out: ["renew x"] },
    { name: "a live run whose lease lapsed keeps its claim: revived, never reclaimed", state: { held: [held({ leaseUntil: NOW - 5000, worker: { kind: "live" } })] }, out: ["renew x revive"] },
    { name: "a lapsed lease with no sign of its worker is reclaimed (an attempt spent)", state: { held: [held({ leaseUntil: NOW, epoch: 2 })] }, out: ["reclaim x"] },
    { name: "a lapsed lease on the last attempt goes to a human instead", state: { held: [held({ leaseUntil: NOW, epoch: 3 })] }, out: ["human x", "idle"] },
    { name: "ready items fill their pool best first, counted with the work recorded in it", state: { held: [held({ pool: "a", worker: { kind: "live" }, leaseUntil: NOW + LEASE })], ready: [{ id: "1", pool: "a" }, { id: "2", pool: "a" }, { id: "3", pool: "b" }, { id: "4", pool: "b" }] }, out: ["claim 1/a", "claim 3/b"] },
    { name: "work elsewhere counts against its pool", state: { busy: new Map([["b", 1]]), ready: [{ id: "3", pool: "b" }] }, out: [] },
    { name: "a reclaim frees its slot in the same step", state: { held: [held({ pool: "b", leaseUntil: NOW })], ready: [{ id: "3", pool: "b" }] }, out: ["reclaim x", "claim 3/b"] },
    { name: "idle: nothing held, nothing ready, nothing waited on", state: {}, out: ["idle"] },
    { name: "not idle while a backoff or a claim elsewhere is waited on", state: { waiting: 1 }, out: [] },
    { name: "not idle while items wait for a pool of size 0", state: { ready: [{ id: "9", pool: "none" }] }, out: [] },
  ];
  test.each(cases)("$name", ({ state, out }) => {
    expect(step(state)).toEqual(out);
  });

  it("reads a lazy ready feed only as far as the pools have room", () => {
    let read = 0;
    function* feed(): Generator<ReadyItem> {
      for (let i = 0; i < 100; i++) {
        read++;
        yield { id: String(i), pool: i % 2 === 0 ? "a" : "b" };
      }
    }
    const claims = decideStep({ now: NOW, held: [], ready: feed() }, { ...options, pools: ["a", "b"] }).filter((d) => d.kind === "claim");
    expect(claims.map((d) => d.id)).toEqual(["0", "1", "2"]);
    expect(read).toBe(3);
  });

  it("decideGrant is the step's grant rule", () => {
    expect(decideGrant("y", 3, options)).toEqual({ kind: "dispatch", id: "y", epoch: 3 });
    expect(decideGrant("y", 4, options).kind).toBe("settle-to-human");
  });

  it("never claims past a pool's free slots, whatever is held and ready (property)", () => {
    const pools = ["a", "b", "none"];
    const claim = fc.record({ pool: fc.constantFrom(...pools), lapsed: fc.boolean(), worker: fc.constantFrom("unseen", "live", "ended"), epoch: fc.integer({ min: 1, max: 5 }) });
    fc.assert(
      fc.property(fc.array(claim, { maxLength: 6 }), fc.array(fc.constantFrom(...pools), { maxLength: 10 }), (claims, ready) => {
        const heldClaims = claims.map((c, i): HeldClaim => held({ id: `h${i}`, pool: c.pool, epoch: c.epoch, leaseUntil: c.lapsed ? NOW - 1 : NOW + LEASE, worker: c.worker === "ended" ? { kind: "ended", stop: { kind: "done" } } : { kind: c.worker } }));
        const decisions = decideStep({ now: NOW, held: heldClaims, ready: ready.map((pool, i) => ({ id: `r${i}`, pool })) }, options);
        for (const pool of pools) {
          const staying = heldClaims.filter((h) => h.pool === pool && !decisions.some((d) => (d.kind === "land" || d.kind === "reclaim" || d.kind === "settle-to-human") && d.id === h.id)).length;
          const claimed = decisions.filter((d) => d.kind === "claim" && d.pool === pool).length;
          expect(staying + claimed).toBeLessThanOrEqual(Math.max(options.poolSize(pool), staying));
          if (claimed > 0) expect(staying + claimed).toBeLessThanOrEqual(options.poolSize(pool));
        }
        // A live worker is never taken back; a lapsed claim with no sign of life never stays.
        for (const h of heldClaims) {
          const mine = decisions.filter((d) => "id" in d && d.id === h.id).map((d) => d.kind);
          if (h.worker.kind === "live") expect(mine.every((k) => k === "renew")).toBe(true);
          if (h.worker.kind === "unseen" && h.leaseUntil <= NOW) expect(mine).toHaveLength(1);
        }
      }),
    );
  });
});
