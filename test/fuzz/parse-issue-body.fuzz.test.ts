/**
 * The issue-body parser against thousands of generated bodies: random form sections, huge fields,
 * unicode, markdown injection and YAML bombs in fenced blocks. Issue bodies are written by anyone,
 * so the parser must never crash, never hang, and name a field for every problem it reports.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { briefHash } from "../../src/core/brief/parse-brief.js";
import { ISSUE_SECTIONS, parseIssueBody } from "../../src/core/brief/parse-issue-body.js";
import { parseSnapshotComment, renderSnapshotComment } from "../../src/core/brief/snapshot.js";

/** Generous for a 2-core machine under a parallel test run; the parser takes well under 10 ms. */
const MAX_MS_PER_BODY = 500;

const headings = Object.keys(ISSUE_SECTIONS);
const heading = fc.oneof(
  fc.constantFrom(...headings).map((h) => h.replace(/\b\w/g, (c) => c.toUpperCase())),
  fc.constantFrom(...headings).map((h) => `**${h.toUpperCase()}** ##`),
  fc.string({ maxLength: 20 }),
);
const injection = fc.constantFrom(
  "```",
  "~~~",
  "```yaml",
  "### Goal",
  "_No response_",
  "<!-- bosun:snapshot -->",
  "@mona",
  "![x](http://evil/x.png)",
  "<script>alert(1)</script>",
  "- [x] done",
  "1. first",
  "{a,b}",
  ",,,,",
  "\r\n",
  "\u0000",
  "\u202e",
  "🚢",
  " ".repeat(3000),
  "#".repeat(3000),
  "`".repeat(500),
);
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "grapheme", maxLength: 200 }) },
  { weight: 2, arbitrary: fc.array(fc.oneof(injection, fc.string({ maxLength: 20 })), { maxLength: 12 }).map((parts) => parts.join(" ")) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 100, max: 12_000 })).map(([s, n]) => s.repeat(n)) },
  { weight: 2, arbitrary: fc.constantFrom("src/**", "300", "P1", "10m", "npm test", "2026-12-05", "default", "task:x", "#12") },
);
const section = fc.tuple(heading, text).map(([h, v]) => `### ${h}\n\n${v}\n`);
const formBody = fc.array(section, { maxLength: 20 }).map((s) => s.join("\n"));

const yamlBomb = fc.oneof(
  fc.integer({ min: 2, max: 12 }).map((levels) => {
    // Billion laughs: each level refers to the previous one ten times.
    const lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let i = 1; i < levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(", ")}]`);
    return lines.join("\n");
  }),
  fc.integer({ min: 10, max: 20_000 }).map((n) => "[".repeat(n) + "]".repeat(n)),
  fc.integer({ min: 10, max: 20_000 }).map((n) => `${"- ".repeat(n)}x`),
  fc.integer({ min: 10, max: 2_000 }).map((n) => Array.from({ length: n }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")),
  fc.string({ maxLength: 300 }),
  fc.constantFrom("goal: x\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 10\n", "!!js/function 'x'", "<<: *missing", "key: !!binary AAAA"),
);
const yamlBody = fc.tuple(fc.string({ maxLength: 100 }), yamlBomb).map(([prose, yaml]) => `${prose}\n\n\`\`\`yaml\n${yaml}\n\`\`\`\n`);

const body = fc.oneof(formBody, yamlBody, fc.string({ unit: "binary", maxLength: 2000 }));

function check(input: string): void {
  const started = performance.now();
  let result: ReturnType<typeof parseIssueBody>;
  try {
    result = parseIssueBody(input, { name: "issue #1", defaultId: "1" });
  } catch (error) {
    throw new Error(`parseIssueBody threw on a ${input.length}-char body: ${String(error)}`);
  }
  const ms = performance.now() - started;
  if (ms > MAX_MS_PER_BODY) throw new Error(`parseIssueBody took ${ms.toFixed(0)} ms on a ${input.length}-char body starting ${JSON.stringify(input.slice(0, 80))}`);
  if (!result.ok) {
    expect(result.problems.length).toBeGreaterThan(0);
    for (const p of result.problems) {
      expect(p.field.trim()).not.toBe("");
      expect(p.message.trim()).not.toBe("");
    }
    return;
  }
  // Whatever parsed must survive the snapshot round trip with the same hash.
  const parsed = parseSnapshotComment(renderSnapshotComment(result.brief), "fuzz");
  expect(parsed.ok && parsed.snapshot.hash).toBe(briefHash(result.brief));
}

describe("parseIssueBody under fuzzing", () => {
  test("issue-form bodies: random sections, unicode, injection, huge fields", () => {
    fc.assert(fc.property(formBody, (b) => check(b)), { numRuns: 2000, seed: 4242 });
  });

  test("fenced yaml: bombs, deep nesting, tags, random text", () => {
    fc.assert(fc.property(yamlBody, (b) => check(b)), { numRuns: 800, seed: 4243 });
  });

  test("anything at all, including binary", () => {
    fc.assert(fc.property(body, (b) => check(b)), { numRuns: 1500 });
  });

  test("valid forms with noise around them still parse", () => {
    const valid = fc.tuple(fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 100_000 })).map(
      ([noise, cap]) => `${noise.replace(/#/g, "")}\n\n### Goal\n\nDo it\n\n### Allowed paths\n\nsrc/**\n\n### Acceptance command\n\n\`\`\`sh\nnpm test\n\`\`\`\n\n### Size cap\n\n${cap}\n`,
    );
    fc.assert(
      fc.property(valid, (b) => {
        const r = parseIssueBody(b, { name: "issue #1", defaultId: "1" });
        return r.ok;
      }),
      { numRuns: 500 },
    );
  });
});
