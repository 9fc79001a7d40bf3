import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskedStream } from "../../../src/adapters/local/masked-stream.js";
import { base64Of } from "../../../src/core/redact/secret-forms.js";

const SECRET = "hunter2-is-the-password-here";
const PEM = "-----BEGIN KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END KEY-----";
const TOKEN = `ghp_${"A1b2C3d4E5".repeat(4)}`;

/** Writes `text` in pieces cut at `cuts`, as pipe reads would, and joins what comes out. */
function through(secrets: readonly string[], text: string, cuts: readonly number[]): string {
  const stream = maskedStream(secrets);
  let out = "";
  let from = 0;
  for (const at of [...new Set(cuts)].sort((a, b) => a - b)) {
    out += stream.write(text.slice(from, at));
    from = at;
  }
  return out + stream.write(text.slice(from)) + stream.end();
}

describe("maskedStream", () => {
  const filler = (n: number): string => "x".repeat(n);
  const cases: Array<[string, readonly string[], string, string]> = [
    ["a given secret", [SECRET], `${filler(900)} key=${SECRET} ${filler(700)}\n`, SECRET],
    ["its base64 form", [SECRET], `${filler(500)}${base64Of(SECRET)}\n${filler(500)}`, base64Of(SECRET)],
    ["a multi-line private key", [PEM], `a\n${filler(400)}\n${PEM}\n${filler(600)}`, "MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu"],
    ["a token known by its shape", [], `${filler(300)} auth ${TOKEN} ${filler(800)}`, TOKEN.slice(-12)],
    ["a bearer header", [], `${filler(300)}\nAuthorization: Bearer abcdefghijklmnopqrstuvwxyz012345 ${filler(900)}`, "qrstuvwxyz012345"],
  ];
  for (const [name, secrets, text, leak] of cases) {
    it(`masks ${name} wherever the output is cut in two or three`, () => {
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 2 }), (cuts) => {
          const out = through(secrets, text, cuts);
          expect(out).not.toContain(leak);
          expect(out).toContain("***");
        }),
        { numRuns: 300 },
      );
    });
  }

  it("on a pause gives out the whole lines it holds, never a line a secret is still being written into", () => {
    const stream = maskedStream([SECRET]);
    expect(stream.write(`Running the tests\nkey=${SECRET.slice(0, 10)}`)).toBe("");
    expect(stream.flushLines()).toBe("Running the tests\n");
    expect(stream.write(`${SECRET.slice(10)}\n`) + stream.end()).toBe("key=***\n");
  });

  it("never cuts a token its held text begins with (a cut that once gave out 'gh' and left 'p_…' unmatched)", () => {
    const text = `${filler(300)} auth ${TOKEN} ${filler(800)}`;
    // Every cut, then a second piece at every fifth place after it.
    for (let a = 0; a <= text.length; a += 1) {
      for (let b = a; b <= Math.min(text.length, a + 300); b += 5) {
        const out = through([], text, [a, b]);
        if (out.includes(TOKEN.slice(-12))) throw new Error(`leaked with cuts at ${a} and ${b}`);
      }
    }
  });

  it("past its 1 MB bound it still holds back the last characters, so a secret at the end of a long token run is not cut", () => {
    const m = maskedStream([SECRET]);
    // One unbroken run of token characters longer than the bound, ending in the first half of the secret.
    const out = [m.write(`${"a".repeat(1024 * 1024)}${SECRET.slice(0, 10)}`), m.write(SECRET.slice(10)), m.end()].join("");
    expect(out).not.toContain(SECRET);
    expect(out.length).toBeGreaterThan(1024 * 1024);
  });

  it("passes everything else through whole and in order", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), fc.array(fc.nat(3000), { maxLength: 5 }), (text, cuts) => {
        expect(through([SECRET], text.replaceAll("h", "k"), cuts)).toBe(text.replaceAll("h", "k"));
      }),
    );
  });

  // Seen failing before the fix: the held tail was cut between an emoji's two UTF-16 halves, and
  // each half, written to output.log alone, became U+FFFD.
  it("never cuts what it passes on between the two halves of a character", () => {
    const stream = maskedStream([SECRET]);
    const text = "é€😀".repeat(400);
    const pieces: string[] = [];
    for (let at = 0; at < text.length; at += 97) pieces.push(stream.write(text.slice(at, at + 97)));
    pieces.push(stream.end());
    for (const piece of pieces) expect(Buffer.from(piece, "utf8").toString("utf8")).toBe(piece);
    expect(pieces.join("")).toBe(text);
  });
});
