import { describe, expect, it } from "vitest";
import { headOf } from "../../../src/adapters/github/tick/head-of.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const at = (s: number): string => new Date(Date.UTC(2026, 11, 3, 12, 0, s)).toISOString().replace(/\.\d{3}Z$/, "Z");

describe("headOf: a pull request's head from a run's payload and a listing", () => {
  it.each([
    ["only the payload lists it", A, undefined, at(10), A],
    ["only the listing knows it", undefined, { sha: B, updatedAt: at(5) }, at(10), B],
    ["both agree", A, { sha: A, updatedAt: at(50) }, at(10), A],
    ["pushed after the run ended (a late delivery): the listing", A, { sha: B, updatedAt: at(20) }, at(10), B],
    ["listed before a push the run is on: the payload", A, { sha: B, updatedAt: at(5) }, at(10), A],
    ["the same second: neither", A, { sha: B, updatedAt: at(10) }, at(10), undefined],
    ["no time for the run: neither", A, { sha: B, updatedAt: at(5) }, null, undefined],
    ["not known at all", undefined, undefined, at(10), undefined],
  ] as const)("%s", (_what, listed, known, completedAt, expected) => {
    expect(headOf(listed, known, completedAt)).toBe(expected);
  });
});
