import { describe, expect, it } from "vitest";
import { redactUrl } from "../../../src/core/verify/redact-url.js";

describe("redactUrl", () => {
  it.each([
    ["a plain URL is unchanged", "https://app.example.com/version", "https://app.example.com/version"],
    ["a password in userinfo is hidden", "https://bot:s3cret@app.example.com/v", "https://bot:***@app.example.com/v"],
    ["credential-like query values are hidden, others kept", "https://h/v?token=abc&env=prod&api_key=k", "https://h/v?token=***&env=prod&api_key=***"],
    ["an unparseable URL loses its query and userinfo", "http://u:p@[bad/v?token=x", "http://[bad/v"],
  ])("%s", (_name, url, shown) => {
    expect(redactUrl(url)).toBe(shown);
    expect(redactUrl(url)).not.toMatch(/s3cret|token=abc|=k\b/);
  });
});
