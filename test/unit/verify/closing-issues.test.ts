import { describe, expect, it } from "vitest";
import { closingIssues } from "../../../src/core/verify/closing-issues.js";

const repo = { owner: "acme", repo: "shop" };

describe("closingIssues", () => {
  it.each<[string, string | null, number[]]>([
    ["a plain Closes #n", "Closes #12", [12]],
    ["every keyword form, any case", "fix #1, Fixes #2, FIXED #3, close #4, closed #5, resolve #6, resolves #7, Resolved #8", [1, 2, 3, 4, 5, 6, 7, 8]],
    ["a keyword with a colon", "Fixes: #9", [9]],
    ["an owner/repo reference to this repository", "Closes acme/shop#10", [10]],
    ["an issue URL in this repository", "Fixes https://github.com/acme/shop/issues/11", [11]],
    ["no repeats", "Closes #4. Also closes #4", [4]],
    ["a mention without a keyword", "See #5 and #6", []],
    ["another repository's issue", "Closes other/repo#7 and fixes https://github.com/other/repo/issues/8", []],
    ["a keyword inside a word", "prefixes #9", []],
    ["a reference inside a code block or HTML comment", "```\nCloses #1\n```\n<!-- Fixes #2 -->\nFixes #3", [3]],
    ["an empty body", null, []],
  ])("%s", (_name, body, issues) => {
    expect(closingIssues(body, repo)).toEqual(issues);
  });
});

describe("closingIssues on bodies a pull request author writes to stall verify", () => {
  // Each took seconds before (quadratic backtracking); the test's own timeout is the bound.
  it.each([
    ["'fix' and 60,000 spaces", `fix${" ".repeat(60_000)}x`],
    ["30,000 unclosed comments", "<!--".repeat(15_000)],
    ["20,000 unclosed fences and a real close", `${"```x".repeat(10_000)}`],
  ])("%s is answered", (_name, body) => {
    expect(closingIssues(body, { owner: "o", repo: "r" })).toEqual([]);
  });

  it("an unclosed comment does not hide a later closing keyword", () => {
    expect(closingIssues("<!-- template never closed\nCloses #5", { owner: "o", repo: "r" })).toEqual([5]);
  });
});
