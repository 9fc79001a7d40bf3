/**
 * Fuzz, seeded and CI-sized, for what a pull request or a trace controls: closing keywords in a
 * PR body, CSV traces, the reviewer's answer, a diff's file rows. `npm run bench -- fuzz` runs the
 * same properties at a larger size.
 */
import fc from "fast-check";
import { describe, it } from "vitest";
import { closingIssuesProperty, diffCompletenessProperty, parseCsvProperty, parseReviewAnswerProperty } from "./pr-controlled-properties.js";

const RUNS = 200;

describe("parsers a pull request or a trace controls (fast-check, seeded)", () => {
  it("closingIssues", () => fc.assert(closingIssuesProperty, { seed: 15, numRuns: RUNS }));
  it("parseCsv", () => fc.assert(parseCsvProperty, { seed: 15, numRuns: RUNS }));
  it("parseReviewAnswer", () => fc.assert(parseReviewAnswerProperty, { seed: 15, numRuns: RUNS }));
  it("diffCompleteness", () => fc.assert(diffCompletenessProperty, { seed: 15, numRuns: RUNS }));
});
