import { describe, expect, it } from "vitest";
import type { ClaimToken } from "../../../src/core/claims/claim-token.js";
import type { EngineLoop } from "../../../src/core/engine/engine-loop.js";
import { MemoryClaimStore } from "../../../src/adapters/memory/memory-claim-store.js";

// These lines are checked by `tsc` (npm test runs it first): each @ts-expect-error fails the build
// if the line under it ever type-checks, i.e. if a dispatch without a claim token became possible.
declare const loop: EngineLoop<null>;
declare const item: Parameters<EngineLoop<null>["dispatch"]>[1];
declare const control: Parameters<EngineLoop<null>["dispatch"]>[3];

function dispatchWithoutClaim(): void {
  // @ts-expect-error a plain object is not a claim token
  void loop.dispatch({ key: "task:x", holder: "me", epoch: 1, expiresAt: 0 }, item, "standard", control);
  // @ts-expect-error nothing at all is not a claim token either
  void loop.dispatch(undefined, item, "standard", control);
  const forged = { key: "task:x", holder: "me", epoch: 1, expiresAt: 0 };
  // @ts-expect-error a structurally identical object without the brand is refused
  const token: ClaimToken = forged;
  void token;
}

describe("claim tokens", () => {
  it("are only minted by claim(): the store's grant is the one way to get one", async () => {
    const result = await new MemoryClaimStore().claim("task:x", "me", 1000, 0);
    expect(result.granted).toBe(true);
    if (result.granted) expect(Object.isFrozen(result.token)).toBe(true);
    expect(typeof dispatchWithoutClaim).toBe("function");
  });
});
