/** Band and pool of an issue: labels over the brief. */
import { describe, expect, test } from "vitest";
import { DEFAULT_CONFIG } from "../../../src/core/config/bosun-config.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import { issueFacts } from "../../../src/core/intake/issue-facts.js";

const parsed = parseConfig("pools:\n  default: {size: 1, dispatch: {kind: comment}}\n  gpu: {size: 1, dispatch: {kind: comment}}\n  arm: {size: 1, dispatch: {kind: comment}}\n");
if (!parsed.ok) throw new Error("fixture config invalid");
const config = parsed.config;
const brief = { priority: 3, pool: "default" } as const;

describe("issueFacts", () => {
  test.each([
    { name: "no labels: the brief's priority and pool", labels: [], want: { band: 3, pool: "default" } },
    { name: "a P label wins over the brief", labels: ["P1"], want: { band: 1, pool: "default" } },
    { name: "several P labels: the highest band", labels: ["P4", "P0", "P2"], want: { band: 0, pool: "default" } },
    { name: "a pool label naming a configured pool wins", labels: ["pool/gpu"], want: { band: 3, pool: "gpu" } },
    { name: "several pool labels: the first by name", labels: ["pool/gpu", "pool/arm"], want: { band: 3, pool: "arm" } },
    { name: "a pool label naming no configured pool is ignored", labels: ["pool/typo"], want: { band: 3, pool: "default" } },
    { name: "look-alike labels are not priorities", labels: ["P5", "p1", "P1x", "priority"], want: { band: 3, pool: "default" } },
  ])("$name", ({ labels, want }) => {
    expect(issueFacts(labels, brief, config)).toEqual(want);
  });

  test("the default config knows only the default pool", () => {
    expect(issueFacts(["pool/gpu", "P0"], { priority: 2, pool: "default" }, DEFAULT_CONFIG)).toEqual({ band: 0, pool: "default" });
  });
});
