import { describe, expect, it } from "vitest";
import { matchesVersion } from "../../../src/core/verify/match-version.js";

const full = "0123456789abcdef0123456789abcdef01234567";

describe("matchesVersion", () => {
  it.each([
    ["the same string matches", "1.2.3", "1.2.3", true],
    ["surrounding whitespace is ignored", " 1.2.3\n", "1.2.3", true],
    ["another version does not match", "1.2.2", "1.2.3", false],
    ["a version prefix is not a match (1.2 is not 1.2.3)", "1.2", "1.2.3", false],
    ["a short SHA matches the full SHA it abbreviates", "0123456", full, true],
    ["a full SHA matches the short expected SHA", full, "0123456789", true],
    ["SHA comparison ignores case", "0123456789ABCDEF", full, true],
    ["a different short SHA does not match", "0123457", full, false],
    ["a 6-character hex prefix is too short to count as a SHA", "012345", full, false],
  ])("%s", (_name, reported, expected, result) => {
    expect(matchesVersion(reported, expected)).toBe(result);
  });
});
