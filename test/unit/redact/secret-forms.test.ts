import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets, redactValues } from "../../../src/core/redact/redact-secrets.js";
import { base64Of } from "../../../src/core/redact/secret-forms.js";

// Tokens leak in the forms other tools write them, not only raw: actions/checkout stores
// `AUTHORIZATION: basic base64("x-access-token:TOKEN")` in the git config, URLs carry
// percent-encoded credentials, and JSON escapes quotes and backslashes.
const TOKEN = "v1.0123456789abcdef0123456789abcdef01234567";
const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const b64url = (s: string) => Buffer.from(s, "utf8").toString("base64url");

describe("every secret is masked in the forms it travels in", () => {
  it.each([
    ["raw", `token=${TOKEN}`],
    ["base64, as actions/checkout stores it in .git/config", `http.https://github.com/.extraheader AUTHORIZATION: basic ${b64(`x-access-token:${TOKEN}`)}`],
    ["base64 of the value alone", `secret: ${b64(TOKEN)}`],
    ["base64 without padding", `x ${b64(`x-access-token:${TOKEN}`).replace(/=+$/, "")} y`],
    ["base64url", `jwt-ish ${b64url(`x-access-token:${TOKEN}`)}`],
    ["percent-encoded in a URL", `https://x:${encodeURIComponent(TOKEN + "/+=")}@github.com/acme/app.git`],
  ])("%s", (_name, text) => {
    const secret = text.includes("%2F") ? TOKEN + "/+=" : TOKEN;
    const out = redactSecrets(text, [secret]);
    expect(out).toContain(REDACTED);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(b64(`x-access-token:${secret}`).replace(/=+$/, ""));
    expect(out).not.toContain(b64(secret).replace(/=+$/, ""));
    expect(out).not.toContain(encodeURIComponent(secret));
  });

  it("a secret with quotes and backslashes is masked even in JSON text that escapes them", () => {
    const secret = 'pa"ss\\word\nline2';
    const text = JSON.stringify({ tail: `printed ${secret} here` });
    expect(redactSecrets(text, [secret])).not.toContain(JSON.stringify(secret).slice(1, -1));
  });

  it("redactValues masks strings inside objects before they are serialized, keys and shape kept", () => {
    const secret = 'q"uote\\' + TOKEN;
    const value = { checks: [{ evidence: `x ${secret} y`, n: 3, ok: true }], nested: { [`k`]: b64(`x-access-token:${secret}`) }, none: null };
    const out = redactValues(value, [secret]);
    expect(out).toEqual({ checks: [{ evidence: "x *** y", n: 3, ok: true }], nested: { k: REDACTED }, none: null });
    expect(JSON.stringify(out)).not.toContain(TOKEN);
  });

  it("leaves text with no secret in it as it was", () => {
    expect(redactSecrets("Tests: 12 passed\nbase64 aGVsbG8=", [TOKEN])).toBe("Tests: 12 passed\nbase64 aGVsbG8=");
  });

  it("base64Of agrees with Node's Buffer on any text, and no form of any secret survives", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 4, maxLength: 40, unit: "grapheme" }), (secret) => {
        expect(base64Of(secret)).toBe(b64(secret));
        const text = [secret, b64(secret), b64(`x-access-token:${secret}`), encodeURIComponent(secret), JSON.stringify(secret)].join(" | ");
        const out = redactSecrets(text, [secret]);
        for (const form of [secret, b64(`x-access-token:${secret}`), encodeURIComponent(secret)]) expect(out).not.toContain(form);
      }),
    );
  });
});
