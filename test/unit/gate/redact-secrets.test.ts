import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../../src/core/redact/redact-secrets.js";

describe("redactSecrets", () => {
  it.each([
    ["a given value", "password=hunter22!", ["hunter22!"], "password=***"],
    ["the longest given value first", "abcdefgh", ["abcd", "abcdefgh"], "***"],
    ["short values are left alone", "a=1", ["1"], "a=1"],
    ["a classic GitHub token", `t ${"ghp_" + "a".repeat(36)} x`, [], "t *** x"],
    ["a fine-grained GitHub token", `github_pat_${"A1_".repeat(20)}`, [], "***"],
    ["an OpenAI key", `key sk-${"x".repeat(40)}`, [], "key ***"],
    ["an Anthropic key", `sk-ant-api03-${"y".repeat(40)}`, [], "***"],
    ["a Slack token", "xoxb-123456789012-abcdefghij", [], "***"],
    ["a bearer header", "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345", [], "Authorization: Bearer ***"],
  ])("masks %s", (_name, text, secrets, expected) => {
    expect(redactSecrets(text, secrets)).toBe(expected);
  });

  it("leaves ordinary output intact", () => {
    expect(redactSecrets("Tests: 12 passed, 0 failed\nsk-short", [])).toBe("Tests: 12 passed, 0 failed\nsk-short");
  });
});
