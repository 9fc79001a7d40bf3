/** The issue form and the parser agree: every field label is a section the parser reads. */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { ISSUE_SECTIONS, parseIssueBody } from "../../../src/core/brief/parse-issue-body.js";

interface Field {
  type: string;
  id?: string;
  attributes: { label?: string; options?: string[]; render?: string };
  validations?: { required?: boolean };
}
const form = parse(readFileSync(new URL("../../../.github/ISSUE_TEMPLATE/bosun-brief.yml", import.meta.url), "utf8")) as { body: Field[] };
const fields = form.body.filter((f) => f.type !== "markdown");

/** The body GitHub renders from form answers: `### Label`, a blank line, the answer or `_No response_`. */
function render(answers: Record<string, string>): string {
  return fields
    .map((f) => {
      const label = f.attributes.label ?? "";
      const answer = answers[label];
      const value = answer === undefined || answer === "" ? "_No response_" : f.attributes.render === undefined ? answer : `\`\`\`${f.attributes.render}\n${answer}\n\`\`\``;
      return `### ${label}\n\n${value}`;
    })
    .join("\n\n");
}

describe("the brief issue form", () => {
  test("every field's label is a section the parser reads", () => {
    expect(fields.map((f) => (f.attributes.label ?? "").toLowerCase()).filter((l) => !(l in ISSUE_SECTIONS))).toEqual([]);
  });

  test("the required fields are exactly the brief's required ones", () => {
    expect(fields.filter((f) => f.validations?.required === true).map((f) => f.attributes.label)).toEqual(["Goal", "Allowed paths", "Acceptance command", "Size cap"]);
  });

  test("a body rendered from the required answers alone is a valid brief with the defaults", () => {
    const result = parseIssueBody(render({ Goal: "Do it", "Allowed paths": "src/**\ntest/**", "Acceptance command": "npm test", "Size cap": "300", Priority: "P1" }), { name: "issue #9", defaultId: "9" });
    expect(result).toMatchObject({ ok: true, brief: { id: "9", goal: "Do it", constraints: { paths: ["src/**", "test/**"] }, acceptance: { command: "npm test", timeout: 600 }, size_cap: 300, priority: 1, pool: "default" } });
  });

  test("the money budget reads as dollars, with or without a sign or unit, and a wrong one names its section", () => {
    const base = { Goal: "x", "Allowed paths": "a/**", "Acceptance command": "true", "Size cap": "1" };
    for (const written of ["2.50", "$2.50", "2.5 USD", "$ 2.50"]) {
      const result = parseIssueBody(render({ ...base, "Money budget": written }), { name: "i", defaultId: "1" });
      expect(result.ok && result.brief.budget.usd).toBe(2.5);
    }
    const wrong = parseIssueBody(render({ ...base, "Money budget": "a few dollars" }), { name: "i", defaultId: "1" });
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.problems.map((p) => p.field)).toEqual(["Money budget (budget.usd)"]);
  });

  test("every priority option parses", () => {
    const options = fields.find((f) => f.attributes.label === "Priority")?.attributes.options ?? [];
    expect(options).toHaveLength(5);
    for (const [i, option] of options.entries()) {
      const result = parseIssueBody(render({ Goal: "x", "Allowed paths": "a/**", "Acceptance command": "true", "Size cap": "1", Priority: option }), { name: "i", defaultId: "1" });
      expect(result.ok && result.brief.priority).toBe(i);
    }
  });
});
