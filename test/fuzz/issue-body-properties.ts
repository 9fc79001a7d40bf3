/**
 * Arbitraries and properties for the issue-body parser, shared by the CI-sized fuzz test
 * (test/fuzz/parse-issue-body.fuzz.test.ts) and the larger bench (bench/fuzz.ts): the same checks,
 * only the number of runs differs. Issue bodies are written by anyone, so the parser must never
 * crash, never hang, and name a field for every problem it reports.
 */
import fc from "fast-check";
import { briefHash } from "../../src/core/brief/parse-brief.js";
import { ISSUE_SECTIONS, parseIssueBody } from "../../src/core/brief/parse-issue-body.js";
import { parseSnapshotComment, renderSnapshotComment } from "../../src/core/brief/snapshot.js";

/**
 * Generous for a 2-core machine under a parallel test run; the parser takes well under 10 ms on a
 * guarded body. Unguarded, 400 nested `? ` took seconds and 1,000 overflowed the stack.
 */
export const MAX_MS_PER_BODY = 500;

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

/** Issue-form bodies: random sections, unicode, markdown injection, huge fields. */
export const formBody = fc.array(section, { maxLength: 20 }).map((s) => s.join("\n"));

const depth = fc.integer({ min: 10, max: 5_000 });

/** `? ` explicit keys, the nesting the first depth pre-scan did not count, in every arrangement. */
const explicitKeyBomb = fc.oneof(
  depth.map((n) => `${"? ".repeat(n)}x`),
  depth.map((n) => `${"- ? ".repeat(n)}x`),
  depth.map((n) => `${"? : ".repeat(n)}x`),
  depth.map((n) => `${": ".repeat(n)}x`),
  fc.integer({ min: 10, max: 600 }).map((n) => Array.from({ length: n }, (_, i) => `${" ".repeat(i)}? x`).join("\n")),
  fc.integer({ min: 10, max: 300 }).map((n) => Array.from({ length: n }, (_, i) => `${"  ".repeat(i)}? - ? - k${i}`).join("\n")),
  // Explicit keys mixed with tabs and compact sequences, in a random order.
  fc.array(fc.constantFrom("? ", "- ", ": ", "?\t", "-\t"), { minLength: 40, maxLength: 4_000 }).map((parts) => `${parts.join("")}x`),
);

/** Flow collections nested past any bound, including flow explicit keys and tags. */
const flowBomb = fc.oneof(
  depth.map((n) => "[".repeat(n) + "]".repeat(n)),
  depth.map((n) => `${"{a: ".repeat(n)}x${"}".repeat(n)}`),
  depth.map((n) => `${"{? ".repeat(n)}x${"}".repeat(n)}`),
  depth.map((n) => `${"[{".repeat(n)}x${"}]".repeat(n)}`),
  depth.map((n) => `${"!!seq [".repeat(n)}x${"]".repeat(n)}`),
  // Unclosed: the parser must refuse, not search for the end forever.
  depth.map((n) => `goal: ${"[".repeat(n)}`),
);

/** Anchors and aliases: billion laughs, aliases that nest past the bound, anchors on every level. */
const aliasBomb = fc.oneof(
  fc.integer({ min: 2, max: 12 }).map((levels) => {
    const lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let i = 1; i < levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(", ")}]`);
    return lines.join("\n");
  }),
  fc.tuple(fc.integer({ min: 2, max: 20 }), fc.integer({ min: 5, max: 30 })).map(([levels, each]) => {
    // Each anchor is within the depth bound; the alias chain nests levels × each deep.
    const lines = [`a0: &a0 ${"[".repeat(each)}x${"]".repeat(each)}`];
    for (let i = 1; i < levels; i++) lines.push(`a${i}: &a${i} ${"[".repeat(each)}*a${i - 1}${"]".repeat(each)}`);
    lines.push(`goal: *a${levels - 1}`);
    return lines.join("\n");
  }),
  fc.integer({ min: 10, max: 5_000 }).map((n) => `a: &a x\nb: [${Array.from({ length: n }, () => "*a").join(", ")}]`),
  fc.integer({ min: 10, max: 2_000 }).map((n) => `${Array.from({ length: n }, (_, i) => `&a${i} [`).join("")}x${"]".repeat(n)}`),
  fc.integer({ min: 10, max: 2_000 }).map((n) => Array.from({ length: n }, (_, i) => `${" ".repeat(i)}? &k${i} *k${Math.max(0, i - 1)}`).join("\n")),
  fc.constantFrom("<<: *missing", "a: *a", "a: &a [*a]", "&a a: *a", "? *a\n: &a x"),
);

const yamlBomb = fc.oneof(
  explicitKeyBomb,
  flowBomb,
  aliasBomb,
  fc.integer({ min: 10, max: 20_000 }).map((n) => `${"- ".repeat(n)}x`),
  fc.integer({ min: 10, max: 2_000 }).map((n) => Array.from({ length: n }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")),
  fc.string({ maxLength: 300 }),
  fc.constantFrom("goal: x\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 10\n", "!!js/function 'x'", "key: !!binary AAAA"),
);

/** Fenced ```yaml blocks (the App's intake path) holding bombs, deep nesting, tags, random text. */
export const yamlBody = fc.tuple(fc.string({ maxLength: 100 }), yamlBomb).map(([prose, yaml]) => `${prose}\n\n\`\`\`yaml\n${yaml}\n\`\`\`\n`);

/** Only the nesting bombs (explicit keys, flow, anchors and aliases), fenced. */
export const nestingBombBody = fc.tuple(fc.string({ maxLength: 40 }), fc.oneof(explicitKeyBomb, flowBomb, aliasBomb)).map(([prose, yaml]) => `${prose}\n\n\`\`\`yaml\n${yaml}\n\`\`\`\n`);

/** Anything at all: forms, fenced YAML, or binary. */
export const anyBody = fc.oneof(formBody, yamlBody, fc.string({ unit: "binary", maxLength: 2000 }));

/** A valid form with noise in front of it. */
export const validBody = fc
  .tuple(fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 100_000 }))
  .map(
    ([noise, cap]) =>
      `${noise.replace(/#/g, "")}\n\n### Goal\n\nDo it\n\n### Allowed paths\n\nsrc/**\n\n### Acceptance command\n\n\`\`\`sh\nnpm test\n\`\`\`\n\n### Size cap\n\n${cap}\n`,
  );

/** Throws, naming the body, when the parser throws, is slow, or reports a problem without a field. */
export function checkIssueBody(input: string): void {
  const parse = (): { result: ReturnType<typeof parseIssueBody>; ms: number } => {
    const started = performance.now();
    try {
      const result = parseIssueBody(input, { name: "issue #1", defaultId: "1" });
      return { result, ms: performance.now() - started };
    } catch (error) {
      throw new Error(`parseIssueBody threw on a ${input.length}-char body starting ${JSON.stringify(input.slice(0, 80))}: ${String(error)}`);
    }
  };
  let { result, ms } = parse();
  // A pause of the process (a busy machine, a collection) is not the parser's: a blow-up repeats on
  // every try, a pause does not, so a slow body is measured twice more and judged by its fastest.
  for (let again = 0; again < 2 && ms > MAX_MS_PER_BODY; again++) ({ result, ms } = { result, ms: Math.min(ms, parse().ms) });
  if (ms > MAX_MS_PER_BODY) throw new Error(`parseIssueBody took ${ms.toFixed(0)} ms on a ${input.length}-char body starting ${JSON.stringify(input.slice(0, 80))}`);
  if (!result.ok) {
    if (result.problems.length === 0) throw new Error("refused with no problem");
    for (const p of result.problems) {
      if (p.field.trim() === "" || p.message.trim() === "") throw new Error(`a problem without a field or message: ${JSON.stringify(p)}`);
      // A stack overflow caught and reported is still a failure: the guard must stop the text before
      // the parser recurses that deep, because after one overflow V8 has aborted the next parse.
      if (/call stack|recursion/i.test(p.message)) throw new Error(`the parser overflowed its stack on a body starting ${JSON.stringify(input.slice(0, 80))}: ${p.message}`);
    }
    return;
  }
  // Whatever parsed must survive the snapshot round trip with the same hash.
  const parsed = parseSnapshotComment(renderSnapshotComment(result.brief), "fuzz");
  if (!parsed.ok || parsed.snapshot.hash !== briefHash(result.brief)) throw new Error("the snapshot round trip changed the brief's hash");
}

export const formBodyProperty = fc.property(formBody, (b) => checkIssueBody(b));
export const nestingBombProperty = fc.property(nestingBombBody, (b) => checkIssueBody(b));
export const yamlBodyProperty = fc.property(yamlBody, (b) => checkIssueBody(b));
export const anyBodyProperty = fc.property(anyBody, (b) => checkIssueBody(b));
export const validBodyProperty = fc.property(validBody, (b) => {
  const r = parseIssueBody(b, { name: "issue #1", defaultId: "1" });
  if (!r.ok) throw new Error(`a valid form was refused: ${r.problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`);
});
