import { describe, expect, it } from "vitest";
import type { ClaimStore } from "../../src/core/claims/claim-store.js";
import type { ClaimResult, ClaimToken } from "../../src/core/claims/claim-token.js";

const T0 = Date.UTC(2026, 10, 30, 12);
const LEASE = 60_000;
const ok = { ok: true, disposition: "ok", summary: "done" } as const;

function granted(result: ClaimResult): ClaimToken {
  if (!result.granted) throw new Error(`expected a grant, got ${result.reason}: ${result.detail}`);
  return result.token;
}

/** The claim port's contract (DESIGN.md, "Claims"): every store runs this same suite. */
export function claimStoreContract(name: string, make: () => Promise<ClaimStore>): void {
  describe(`claim store contract: ${name}`, () => {
    it("grants a free key at epoch 1 and denies another holder while the lease lives", async () => {
      const store = await make();
      const a = granted(await store.claim("task:x", "a", LEASE, T0));
      expect(a).toMatchObject({ key: "task:x", holder: "a", epoch: 1, expiresAt: T0 + LEASE });
      const b = await store.claim("task:x", "b", LEASE, T0 + 1);
      expect(b).toMatchObject({ granted: false, reason: "held" });
    });

    it("re-claiming by the same holder is a no-op that keeps the epoch", async () => {
      const store = await make();
      const first = granted(await store.claim("task:x", "a", LEASE, T0));
      const again = granted(await store.claim("task:x", "a", LEASE, T0 + 5));
      expect(again.epoch).toBe(first.epoch);
      expect((await store.inspect("task:x", T0 + 5)).epoch).toBe(1);
    });

    it("exactly one of many concurrent claimers wins", async () => {
      const store = await make();
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store.claim("task:race", `h${i}`, LEASE, T0)));
      expect(results.filter((r) => r.granted)).toHaveLength(1);
      expect(results.filter((r) => !r.granted).every((r) => !r.granted && r.reason === "held")).toBe(true);
    });

    it("a retry release frees the key after its backoff, and the next grant is a new epoch", async () => {
      const store = await make();
      const a = granted(await store.claim("task:x", "a", LEASE, T0));
      expect(await store.release(a, { kind: "retry", notBefore: T0 + 10_000 }, T0 + 1)).toEqual({ ok: true });
      expect(await store.claim("task:x", "b", LEASE, T0 + 2)).toMatchObject({ granted: false, reason: "not-ready" });
      const b = granted(await store.claim("task:x", "b", LEASE, T0 + 10_001));
      expect(b.epoch).toBe(2);
    });

    it("a settled key is never granted again and inspect shows its outcome", async () => {
      const store = await make();
      const a = granted(await store.claim("task:x", "a", LEASE, T0));
      expect(await store.release(a, { kind: "settle", outcome: ok }, T0 + 1)).toEqual({ ok: true });
      expect(await store.claim("task:x", "b", LEASE, T0 + 2)).toMatchObject({ granted: false, reason: "not-ready" });
      const state = await store.inspect("task:x", T0 + 2);
      expect(state.settled).toMatchObject({ ok: true, disposition: "ok" });
      expect(state.live).toBeUndefined();
    });

    it("reclaims an expired lease, grants the next epoch, and fences the stale holder out", async () => {
      const store = await make();
      const stale = granted(await store.claim("task:x", "a", 1000, T0));
      expect(await store.reclaimStale(T0 + 500)).toEqual([]);
      const taken = await store.reclaimStale(T0 + 1001);
      expect(taken).toMatchObject([{ key: "task:x", holder: "a", epoch: 1 }]);
      const fresh = granted(await store.claim("task:x", "b", LEASE, T0 + 1002));
      expect(fresh.epoch).toBe(2);
      expect(await store.release(stale, { kind: "settle", outcome: ok }, T0 + 1003)).toMatchObject({ ok: false });
      expect(await store.renew(stale, LEASE, T0 + 1003)).toMatchObject({ ok: false });
      expect((await store.inspect("task:x", T0 + 1003)).settled).toBeUndefined();
      expect(await store.release(fresh, { kind: "settle", outcome: ok }, T0 + 1004)).toEqual({ ok: true });
    });

    it("renewal keeps a lease alive past its first end", async () => {
      const store = await make();
      const a = granted(await store.claim("task:x", "a", 1000, T0));
      const renewed = await store.renew(a, 1000, T0 + 900);
      expect(renewed).toMatchObject({ ok: true, token: { epoch: 1, expiresAt: T0 + 1900 } });
      expect(await store.reclaimStale(T0 + 1500)).toEqual([]);
      expect(await store.claim("task:x", "b", 1000, T0 + 1500)).toMatchObject({ granted: false, reason: "held" });
      expect(await store.reclaimStale(T0 + 1901)).toHaveLength(1);
    });

    it("a land on an expired lease is refused, even before anyone reclaims it, and leaves the claim for the reclaim", async () => {
      const store = await make();
      const a = granted(await store.claim("task:x", "a", 1000, T0));
      expect(await store.release(a, { kind: "settle", outcome: ok }, T0 + 1000)).toMatchObject({ ok: false, reason: "lost" });
      expect(await store.release(a, { kind: "retry", notBefore: T0 }, T0 + 5000)).toMatchObject({ ok: false });
      const state = await store.inspect("task:x", T0 + 5000);
      expect(state.settled).toBeUndefined();
      expect(await store.reclaimStale(T0 + 5000)).toMatchObject([{ key: "task:x", holder: "a", epoch: 1 }]);
    });

    it("an expired lease not yet reclaimed is not granted to anyone: the reclaim comes first, and counts the attempt", async () => {
      const store = await make();
      granted(await store.claim("task:x", "a", 1000, T0));
      expect(await store.claim("task:x", "b", LEASE, T0 + 1500)).toMatchObject({ granted: false, reason: "held" });
      // Not even by its own holder: the lapsed attempt is spent.
      expect(await store.claim("task:x", "a", LEASE, T0 + 1500)).toMatchObject({ granted: false, reason: "held" });
      expect(await store.reclaimStale(T0 + 1500)).toHaveLength(1);
      expect(granted(await store.claim("task:x", "b", LEASE, T0 + 1600)).epoch).toBe(2);
    });

    it("epochs only grow across grants, releases and reclaims", async () => {
      const store = await make();
      let last = 0;
      let now = T0;
      for (let i = 0; i < 6; i++) {
        const t = granted(await store.claim("task:e", `h${i}`, 1000, now));
        expect(t.epoch).toBeGreaterThan(last);
        last = t.epoch;
        if (i % 2 === 0) await store.release(t, { kind: "retry", notBefore: now }, now + 1);
        else await store.reclaimStale(now + 2000);
        now += 3000;
      }
      expect((await store.inspect("task:e", now)).epoch).toBe(last);
    });
  });
}
