/** Deep YAML is refused before the parser recurses into it. */
import { describe, expect, test } from "vitest";
import { yamlNestingProblem } from "../../../src/core/brief/yaml-depth.js";

describe("yamlNestingProblem", () => {
  test.each([
    { name: "a normal brief", text: "goal: x\nconstraints:\n  paths: [src/**, 'a{b,c}']\n  notes:\n    - one\n", bad: false },
    { name: "brackets in comments do not count", text: `goal: x # ${"[".repeat(100)}\n`, bad: false },
    { name: "deep flow sequences", text: "[".repeat(33), bad: true },
    { name: "deep flow mappings", text: "{a: ".repeat(40), bad: true },
    { name: "deep block sequences on one line", text: `${"- ".repeat(40)}x`, bad: true },
    { name: "ever-deeper indentation", text: Array.from({ length: 200 }, (_, i) => `${" ".repeat(i)}a:`).join("\n"), bad: true },
  ])("$name", ({ text, bad }) => {
    expect(yamlNestingProblem(text) !== undefined).toBe(bad);
  });
});

describe("every kind of nesting is bounded before the parser sees it", () => {
  test.each([
    { name: "nested explicit keys", text: `${"? ".repeat(40)}x` },
    { name: "explicit keys and compact sequences mixed", text: `${"- ? ".repeat(20)}x` },
    { name: "explicit values", text: `${": ".repeat(40)}x` },
    { name: "tab indentation", text: Array.from({ length: 200 }, (_, i) => `${"\t".repeat(i)}a:`).join("\n") },
  ])("$name", ({ text }) => {
    expect(yamlNestingProblem(text)).toMatch(/line \d+: /);
  });
});
