// Fuzz at a larger size than CI (DESIGN.md "Benchmarks" convention: figures, never a failing build):
// the properties of test/fuzz/pr-controlled-properties.ts and test/fuzz/issue-body-properties.ts
// with many more runs and fresh seeds, all in this one process (as the App parses issue bodies).
// Last line: {runs_per_property, properties, failures, seconds}. Run: npm run bench -- fuzz (20,000
// runs a property), or npx tsx bench/fuzz.ts RUNS for another size.
import fc from "fast-check";
import { performance } from "node:perf_hooks";
import { anyBodyProperty, formBodyProperty, nestingBombProperty, validBodyProperty, yamlBodyProperty } from "../test/fuzz/issue-body-properties.js";
import { closingIssuesProperty, diffCompletenessProperty, parseCsvProperty, parseReviewAnswerProperty } from "../test/fuzz/pr-controlled-properties.js";

const runs = Number(process.argv[2] ?? 20_000);
const properties = {
  closingIssues: closingIssuesProperty,
  parseCsv: parseCsvProperty,
  parseReviewAnswer: parseReviewAnswerProperty,
  diffCompleteness: diffCompletenessProperty,
  "parseIssueBody (forms)": formBodyProperty,
  "parseIssueBody (fenced yaml)": yamlBodyProperty,
  "parseIssueBody (nesting bombs)": nestingBombProperty,
  "parseIssueBody (anything)": anyBodyProperty,
  "parseIssueBody (valid forms)": validBodyProperty,
};
let failures = 0;
const started = performance.now();
for (const [name, property] of Object.entries(properties)) {
  const t = performance.now();
  const result = fc.check(property as fc.IProperty<unknown>, { numRuns: runs });
  if (result.failed) failures++;
  console.log(`${name}: ${result.failed ? `FAILED (seed ${result.seed}): ${String(result.errorInstance ?? "").split("\n")[0]}` : "ok"} in ${((performance.now() - t) / 1000).toFixed(1)}s`);
}
console.log(JSON.stringify({ runs_per_property: runs, properties: Object.keys(properties).length, failures, seconds: Number(((performance.now() - started) / 1000).toFixed(2)) }));
