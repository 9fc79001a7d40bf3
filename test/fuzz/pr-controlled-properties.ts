/**
 * Properties of the parsers a pull request or a trace controls, shared by the CI-sized fuzz test
 * (test/fuzz/pr-controlled.fuzz.test.ts) and the larger bench (bench/fuzz.ts): the same checks,
 * only the number of runs differs.
 */
import fc from "fast-check";
import type { GateDiff } from "../../src/core/gate/changed-file.js";
import { diffCompleteness } from "../../src/core/gate/diff-completeness.js";
import { parseCsv } from "../../src/core/replay/parse-csv.js";
import { parseReviewAnswer } from "../../src/core/review/parse-review-answer.js";
import type { ReviewItem } from "../../src/core/review/review-items.js";
import { closingIssues } from "../../src/core/verify/closing-issues.js";

const REPO = { owner: "acme", repo: "shop" };

/** Text that mixes what these parsers treat specially with anything at all. */
const hostile = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 300 }) },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom("```", "<!--", "-->", "fix", "Closes", "resolves:", "#", "#12", " ", "\n", "\t", ":", '"', ",", "\r\n", "{", "}", "[", "]", "acme/shop#7", "other/repo#8", "https://github.com/acme/shop/issues/9"), fc.string({ maxLength: 8 })), { maxLength: 60 })
      .map((parts) => parts.join("")),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("fix", "<!--", "```", '"', " ", "fix #"), fc.integer({ min: 1000, max: 20_000 })).map(([s, n]) => s.repeat(n)) },
);

/** closingIssues: never throws, distinct positive numbers, finds a plain `Closes #N` line, ignores other repos. */
export const closingIssuesProperty = fc.property(hostile, fc.integer({ min: 1, max: 99_999 }), (noise, n) => {
  const found = closingIssues(noise, REPO);
  if (new Set(found).size !== found.length || found.some((x) => !Number.isSafeInteger(x) || x <= 0)) throw new Error(`bad numbers: ${JSON.stringify(found)}`);
  for (const x of found) if (!noise.includes(String(x))) throw new Error(`invented #${x}`);
  // Outside any fence or comment (noise without them), an explicit line is always found.
  const clean = noise.replace(/```|<!--|-->/g, "");
  if (!closingIssues(`${clean}\n\nCloses #${n}\n`, REPO).includes(n)) throw new Error(`missed Closes #${n}`);
  if (closingIssues(`${clean}\n\nCloses other/repo#${n}\n`, REPO).includes(n) && !clean.includes(String(n))) throw new Error(`took another repo's #${n}`);
});

const cellText = fc.string({ maxLength: 12 });
const table = fc.array(fc.array(cellText, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 30 });
const quote = (cell: string): string => `"${cell.replace(/"/g, '""')}"`;

/** parseCsv: a valid table comes back exactly; one broken line costs one row; nothing throws. */
export const parseCsvProperty = fc.property(table, fc.nat(), hostile, (rows, at, noise) => {
  const text = rows.map((r) => r.map(quote).join(",")).join("\n");
  const read: string[][] = [];
  const bad: number[] = [];
  parseCsv(text, (r) => read.push(r.cells), (m) => bad.push(m.line));
  if (bad.length > 0 || JSON.stringify(read) !== JSON.stringify(rows)) throw new Error("a valid table did not round-trip");
  // Break one row with an unclosed quote: every other row must still be read, that one reported.
  const i = at % rows.length;
  const broken = rows.map((r, j) => (j === i ? `"${r[0] ?? ""},x` : r.map(quote).join(",")));
  const again: string[][] = [];
  const again_bad: number[] = [];
  parseCsv(broken.join("\n"), (r) => again.push(r.cells), (m) => again_bad.push(m.line));
  const lineOf = broken.slice(0, i).reduce((n, r) => n + r.split("\n").length, 1);
  // An unclosed quote may legitimately pair with the next line's opening quote (CSV cannot tell
  // that from a cell holding a newline), so it may cost that one neighbour, never more.
  if (again.length < rows.length - 2) throw new Error(`broken row ${i} (line ${lineOf}) swallowed others: read ${again.length} of ${rows.length - 1}, bad ${JSON.stringify(again_bad)}`);
  // Anything at all: no throw, lines only go forward.
  let last = 0;
  parseCsv(noise, (r) => {
    if (r.line <= last) throw new Error("lines went backwards");
    last = r.line;
  });
});

const items: ReviewItem[] = [
  { id: "C1", kind: "constraint", text: "keep the signature" },
  { id: "N1", kind: "non-goal", text: "no backoff" },
];
const changed = new Set(["src/a.ts", "src/b.ts"]);
const verdict = fc.constantFrom("satisfied", "violated", "unclear");
const evidence = fc.array(fc.record({ path: fc.constantFrom("src/a.ts", "src/b.ts", "README.md"), why: fc.string({ minLength: 1, maxLength: 20 }) }), { maxLength: 3 });
const answer = fc.array(fc.record({ id: fc.constantFrom("C1", "N1", "C2"), verdict, evidence }), { maxLength: 4 });

/** parseReviewAnswer: never throws; ok exactly when the answer is complete, unique and cites changed files. */
export const parseReviewAnswerProperty = fc.property(answer, hostile, fc.constantFrom("bare", "fenced", "prose"), (entries, noise, wrap) => {
  const json = JSON.stringify({ items: entries });
  const text = wrap === "bare" ? json : wrap === "fenced" ? `\`\`\`json\n${json}\n\`\`\`` : `${noise} ${json}`;
  const parsed = parseReviewAnswer(text, items, changed);
  const ids = entries.map((e) => e.id);
  const valid =
    wrap !== "prose" &&
    new Set(ids).size === ids.length &&
    ids.length === 2 &&
    ids.includes("C1") &&
    ids.includes("N1") &&
    entries.every((e) => e.evidence.every((x) => changed.has(x.path)) && (e.verdict !== "violated" || e.evidence.length > 0));
  if (parsed.ok !== valid && !(wrap === "prose" && noise.trim() === "" && parsed.ok === validIgnoringWrap(entries))) {
    throw new Error(`ok=${parsed.ok} for ${wrap} ${json}: ${parsed.ok ? "" : parsed.reason}`);
  }
  if (!parsed.ok && parsed.reason.length > 2000) throw new Error("an unbounded reason");
  const junk = parseReviewAnswer(noise, items, changed);
  if (junk.ok) throw new Error(`noise parsed as an answer: ${JSON.stringify(noise)}`);
});

function validIgnoringWrap(entries: readonly { id: string; verdict: string; evidence: readonly { path: string }[] }[]): boolean {
  const ids = entries.map((e) => e.id);
  return new Set(ids).size === 2 && ids.length === 2 && ids.includes("C1") && ids.includes("N1") && entries.every((e) => e.evidence.every((x) => changed.has(x.path)) && (e.verdict !== "violated" || e.evidence.length > 0));
}

const file = fc.record({
  path: fc.constantFrom("a", "b", "c", "d/e", "f"),
  status: fc.constantFrom("added", "modified", "removed", "renamed", "copied"),
  additions: fc.nat({ max: 50 }),
  deletions: fc.nat({ max: 50 }),
  patch: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
});

/** diffCompleteness: counts complete only with the list complete, rows adding up and every patch; a reason for every gap. */
export const diffCompletenessProperty = fc.property(fc.array(file, { maxLength: 12 }), fc.nat({ max: 4000 }), fc.integer({ min: -3, max: 3 }), (files, bigList, drift) => {
  const sumA = files.reduce((n, f) => n + f.additions, 0);
  const sumD = files.reduce((n, f) => n + f.deletions, 0);
  const changedFiles = drift === 3 ? bigList : files.length;
  const diff = { files, totals: { changed_files: changedFiles, additions: sumA + (drift === 1 ? 1 : 0), deletions: sumD } } as unknown as GateDiff;
  const gaps = diffCompleteness(diff);
  const patchless = files.some((f) => f.patch === undefined && !((f.status === "renamed" || f.status === "copied") && f.additions === 0 && f.deletions === 0));
  if (gaps.countsComplete && !gaps.listComplete) throw new Error("counts complete on an incomplete list");
  const expectComplete = changedFiles === files.length && drift !== 1 && !patchless;
  if (gaps.countsComplete !== expectComplete) throw new Error(`countsComplete=${gaps.countsComplete}, expected ${expectComplete}`);
  if (!gaps.countsComplete && gaps.reasons.length === 0) throw new Error("a gap without a reason");
  if (gaps.countsComplete && gaps.reasons.length > 0) throw new Error("a reason without a gap");
});
