/** Matrix expansion against GitHub's documented rules and its parser's errors, as a table. */
import { describe, expect, test } from "vitest";
import type { Value } from "./expression-values.js";
import { expandMatrix } from "./expand-matrix.js";

const scope = { contexts: { inputs: { items: '[{"item":"12","epoch":"3"},{"item":"13","epoch":"1"}]', none: "[]" } } as Record<string, Value> };
const legs = (raw: unknown) => expandMatrix(raw, scope).map((l) => `${l.label} => ${JSON.stringify(l.matrix)}`);

describe("strategy.matrix", () => {
  test.each<[string, unknown, string[]]>([
    ["include from fromJSON, one leg per entry", { include: "${{ fromJSON(inputs.items) }}" }, ['12, 3 => {"item":"12","epoch":"3"}', '13, 1 => {"item":"13","epoch":"1"}']],
    ["the whole matrix as one expression", '${{ fromJSON(\'{"os":["a","b"]}\') }}', ['a => {"os":"a"}', 'b => {"os":"b"}']],
    ["two vectors: the first varies slowest", { os: ["linux", "mac"], node: [18, 20] }, ['linux, 18 => {"os":"linux","node":18}', 'linux, 20 => {"os":"linux","node":20}', 'mac, 18 => {"os":"mac","node":18}', 'mac, 20 => {"os":"mac","node":20}']],
    ["exclude drops a combination", { os: ["linux", "mac"], node: [18], exclude: [{ os: "mac" }] }, ['linux, 18 => {"os":"linux","node":18}']],
    // The docs' example: an include that overwrites no original value is added to every combination it fits.
    ["include adds to what it fits, else stands alone", { fruit: ["apple", "pear"], include: [{ color: "green" }, { fruit: "apple", shape: "circle" }, { fruit: "banana" }] }, ['apple => {"fruit":"apple","color":"green","shape":"circle"}', 'pear => {"fruit":"pear","color":"green"}', 'banana => {"fruit":"banana"}']],
    ["an added value can be overwritten by a later include", { animal: ["cat"], include: [{ color: "green" }, { color: "pink", animal: "cat" }] }, ['cat => {"animal":"cat","color":"pink"}']],
  ])("%s", (_what, raw, expected) => {
    expect(legs(raw)).toEqual(expected);
  });

  test.each<[string, unknown, string]>([
    ["an empty include from fromJSON", { include: "${{ fromJSON(inputs.none) }}" }, "Matrix must define at least one vector"],
    ["an empty vector", { os: [] }, "Matrix vector 'os' does not contain any values"],
    ["an exclude key that is no vector", { os: ["a"], exclude: [{ node: 1 }] }, "Matrix exclude key 'node' does not match any key within the matrix"],
    ["an empty include entry", { include: [{}] }, "Matrix include mapping does not contain any values"],
    ["include that is no list", { include: "${{ inputs.items }}" }, "Unexpected value '[{\"item\":\"12\",\"epoch\":\"3\"},{\"item\":\"13\",\"epoch\":\"1\"}]': matrix includes must be a sequence"],
  ])("%s fails: %s", (_what, raw, error) => {
    expect(() => expandMatrix(raw, scope)).toThrow(error);
  });
});
