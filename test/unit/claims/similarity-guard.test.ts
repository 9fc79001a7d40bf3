import { describe, expect, it } from "vitest";
import { GuardedClaimStore } from "../../../src/core/claims/guarded-claim-store.js";
import { findSimilarKey, tokenizeClaimKey } from "../../../src/core/claims/similarity-guard.js";
import { MemoryClaimStore } from "../../../src/adapters/memory/memory-claim-store.js";

const namespaces = { docs: { once_ever: true, artifact_dir: "docs/" }, adr: { once_ever: true, artifact_dir: "docs/adr/" }, task: {} };

describe("similarity guard", () => {
  it("tokenizes the slug of namespace:slug", () => {
    expect(tokenizeClaimKey("task:HTTP-retry_after.v2")).toEqual({ namespace: "task", tokens: new Set(["http", "retry", "after", "v2"]) });
  });

  it.each([
    ["denies the same work under a longer name", "task:http-retry-after-header", ["task:http-retry-after"], "task:http-retry-after"],
    ["denies a reordering of the same words", "task:after-retry-http", ["task:http-retry-after"], "task:http-retry-after"],
    ["allows two keys sharing only two tokens", "task:http-retry-budget", ["task:http-retry-after"], undefined],
    ["allows when containment is under 80%", "task:fix-http-retry-after-and-jitter-and-backoff", ["task:http-retry-after-cache-layer"], undefined],
    ["gates work namespaces against each other", "fix:http-retry-after", ["task:http-retry-after"], "task:http-retry-after"],
    ["skips the guard between two artifact namespaces", "docs:http-retry-after", ["adr:http-retry-after"], undefined],
    ["still gates an artifact namespace against a work one", "docs:http-retry-after", ["task:http-retry-after"], "task:http-retry-after"],
    ["never compares a key with itself", "task:http-retry-after", ["task:http-retry-after"], undefined],
  ] as const)("%s", (_name, key, others, expected) => {
    expect(findSimilarKey(key, others, namespaces)?.key).toBe(expected);
  });

  it("denies a similar key in front of the store, and counts denials by reason", async () => {
    const inner = new MemoryClaimStore();
    const guarded = new GuardedClaimStore(inner, inner);
    const t0 = Date.UTC(2026, 10, 30);
    expect((await guarded.claim("task:http-retry-after", "a", 60_000, t0)).granted).toBe(true);
    expect(await guarded.claim("task:retry-after-http-client", "b", 60_000, t0)).toMatchObject({ granted: false, reason: "similar" });
    expect(await guarded.claim("task:http-retry-after", "b", 60_000, t0)).toMatchObject({ granted: false, reason: "held" });
    expect(Object.fromEntries(guarded.denials)).toEqual({ similar: 1, held: 1 });
  });

  it("keeps gating for a day after the similar claim completed, then lets go", async () => {
    const inner = new MemoryClaimStore();
    const guarded = new GuardedClaimStore(inner, inner);
    const t0 = Date.UTC(2026, 10, 30);
    const first = await guarded.claim("task:http-retry-after", "a", 60_000, t0);
    if (!first.granted) throw new Error("expected a grant");
    await guarded.release(first.token, { kind: "settle", outcome: { ok: true, disposition: "ok", summary: "done" } }, t0 + 1);
    expect((await guarded.claim("task:http-retry-after-v2", "b", 60_000, t0 + 3_600_000)).granted).toBe(false);
    expect((await guarded.claim("task:http-retry-after-v2", "b", 60_000, t0 + 25 * 3_600_000)).granted).toBe(true);
  });
});

describe("similarity guard: only keys that could match read the index", () => {
  it("a key of fewer than three tokens is never similar, so the store's key list is not read for it", async () => {
    const inner = new MemoryClaimStore();
    let reads = 0;
    const counting = { activeKeys: (now: number, recentMs: number) => (reads++, inner.activeKeys(now, recentMs)) };
    const guarded = new GuardedClaimStore(inner, counting);
    const t0 = Date.UTC(2026, 10, 30);
    expect((await guarded.claim("task:b00001", "a", 60_000, t0)).granted).toBe(true);
    expect((await guarded.claim("task:retry-after", "a", 60_000, t0)).granted).toBe(true);
    expect(reads).toBe(0);
    expect((await guarded.claim("task:http-retry-after", "a", 60_000, t0)).granted).toBe(true);
    expect(await guarded.claim("task:after-http-retry", "b", 60_000, t0)).toMatchObject({ granted: false, reason: "similar" });
    expect(reads).toBe(2);
  });
});
