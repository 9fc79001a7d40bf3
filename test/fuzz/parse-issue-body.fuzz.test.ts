/**
 * The issue-body parser against thousands of generated bodies (fast-check, every property seeded):
 * random form sections, huge fields, unicode, markdown injection, and YAML bombs of every kind of
 * nesting (explicit keys, flow, anchors and aliases) in fenced blocks. All of it runs in this one
 * process, one body after another, as the App's intake does. `npm run bench -- fuzz` runs the same
 * properties at a larger size.
 */
import fc from "fast-check";
import { describe, test } from "vitest";
import { anyBodyProperty, formBodyProperty, nestingBombProperty, validBodyProperty, yamlBodyProperty } from "./issue-body-properties.js";

describe("parseIssueBody under fuzzing", () => {
  test("issue-form bodies: random sections, unicode, injection, huge fields", () => {
    fc.assert(formBodyProperty, { numRuns: 2000, seed: 4242 });
  });

  test("fenced yaml: bombs, deep nesting, tags, random text", () => {
    fc.assert(yamlBodyProperty, { numRuns: 800, seed: 4243 });
  });

  test("fenced yaml nesting bombs: '? ' explicit keys, flow, anchors and aliases", () => {
    fc.assert(nestingBombProperty, { numRuns: 400, seed: 4246 });
  });

  test("anything at all, including binary", () => {
    fc.assert(anyBodyProperty, { numRuns: 1500, seed: 4244 });
  });

  test("valid forms with noise around them still parse", () => {
    fc.assert(validBodyProperty, { numRuns: 500, seed: 4245 });
  });
});
