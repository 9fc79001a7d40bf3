/**
 * Names JavaScript objects already have, and how many pools there may be: a pool or namespace named
 * `__proto__` is refused by name (it used to vanish, its items never dispatched), one named
 * `constructor` is itself, and a configuration names at most MAX_POOLS pools.
 */
import { describe, expect, it } from "vitest";
import { MAX_POOLS } from "../../../src/core/config/bosun-config.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import { parseBriefYaml } from "../../../src/core/brief/parse-brief.js";

const pool = "{size: 2, dispatch: {kind: label, label: claude}}";

describe("object names in a configuration", () => {
  // Seen failing before the fix: both parsed as valid, with the entry gone.
  it.each([
    ["a pool", `pools:\n  __proto__: ${pool}\n`, 2],
    ["a quoted pool", `pools:\n  "__proto__": ${pool}\n`, 2],
    ["a claim namespace", "claims:\n  namespaces:\n    __proto__: {once_ever: true}\n", 3],
  ])("%s named __proto__ is refused, naming the line", (_what, text, line) => {
    const result = parseConfig(text);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems.map((p) => p.message)).toEqual([`line ${line}: a key named __proto__ cannot be read (JavaScript objects take it as their prototype): use another name`]);
  });

  it("a pool named constructor is that pool, and an unnamed one is not found on every object", () => {
    const named = parseConfig(`pools:\n  constructor: ${pool}\n`);
    expect(named.ok && named.config.pools["constructor"]).toEqual({ size: 2, tier: "standard", dispatch: { kind: "label", label: "claude" } });
    const other = parseConfig(`pools:\n  default: ${pool}\n`);
    expect(other.ok && other.config.pools["constructor"]).toBeUndefined();
    expect(other.ok && other.config.claims.namespaces["constructor"]).toBeUndefined();
    const empty = parseConfig("");
    expect(empty.ok && empty.config.pools["tostring"]).toBeUndefined();
    expect(empty.ok && empty.config.pools["constructor"]).toBeUndefined();
  });

  it("a brief with a __proto__ key is refused, not read with the key gone", () => {
    const result = parseBriefYaml('goal: Do one thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n__proto__: {pool: x}\n', { name: "b.yml", defaultId: "b" });
    expect(result.ok).toBe(false);
  });
});

describe("how many pools", () => {
  const pools = (n: number): string => `pools:\n${Array.from({ length: n }, (_, i) => `  p${i}: ${pool}\n`).join("")}`;
  it(`${MAX_POOLS} pools are fine`, () => expect(parseConfig(pools(MAX_POOLS)).ok).toBe(true));
  // Seen failing before the fix: 3,000 pools was a valid configuration (a label each, one a second).
  it.each([MAX_POOLS + 1, 3000])("%i pools are refused, saying the bound", (n) => {
    const result = parseConfig(pools(n));
    expect(result.ok ? [] : result.problems).toEqual([{ field: "pools", message: `at most ${MAX_POOLS} pools` }]);
  });
});
