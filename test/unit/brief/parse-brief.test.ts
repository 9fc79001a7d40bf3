import { describe, expect, it } from "vitest";
import { briefHash, parseBriefYaml } from "../../../src/core/brief/parse-brief.js";
import { parseDuration } from "../../../src/core/brief/duration.js";
import { parseIssueBody } from "../../../src/core/brief/parse-issue-body.js";

const src = { name: "briefs/x.yml", defaultId: "x" };
const minimal = "goal: Do a thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 300\n";

describe("parseDuration", () => {
  it.each([
    ["90s", 90],
    ["30m", 1800],
    ["2h", 7200],
    ["1d", 86400],
    ["45", 45],
    [120, 120],
    ["1.5h", 5400],
  ] as const)("%s is %i seconds", (input, seconds) => expect(parseDuration(input)).toBe(seconds));

  it.each(["", "soon", "-5m", "5 minutes", "m", "1w"])("'%s' is not a duration", (input) => expect(parseDuration(input)).toBeUndefined());
});

describe("parseBriefYaml", () => {
  it("fills every default and turns durations into seconds", () => {
    const result = parseBriefYaml(`${minimal}budget: {wall_clock: 20m}\nacceptance_extra: 1\n`.replace("acceptance_extra: 1\n", ""), src);
    expect(result).toEqual({
      ok: true,
      brief: {
        id: "x",
        goal: "Do a thing.",
        constraints: { paths: ["src/**"], notes: [] },
        non_goals: [],
        acceptance: { command: "npm test", timeout: 600 },
        size_cap: 300,
        budget: { wall_clock: 1200, steps: 200, tokens: 2_000_000, tool_errors: 5 },
        priority: 2,
        pool: "default",
        tier: "standard",
        claim_key: "task:x",
        blocked_by: [],
      },
    });
  });

  it("reports every problem at once, each naming its field and file", () => {
    const result = parseBriefYaml(
      "goal: ''\nconstraints: {paths: []}\nacceptance: {timeout: later}\nsize_cap: 1.5\nbudget: {steps: 0}\npriority: P9\ndue: next week\nclaim_key: NoColon\nblocked_by: ['bad id!']\ncolour: red\n",
      src,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const fields = result.problems.map((p) => p.field);
    expect(fields).toEqual(expect.arrayContaining(["goal", "constraints.paths", "acceptance.command", "acceptance.timeout", "size_cap", "budget.steps", "priority", "due", "claim_key", "blocked_by.0", "colour"]));
    expect(result.problems.every((p) => p.source === "briefs/x.yml" && p.message.length > 0)).toBe(true);
    expect(result.problems.find((p) => p.field === "acceptance.command")?.message).toBe("acceptance.command is required");
  });

  it("names the line and column of a YAML syntax error", () => {
    const result = parseBriefYaml("goal: [unclosed\nconstraints: x", src);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]).toMatchObject({ field: "(yaml)", message: expect.stringMatching(/^line \d+, column \d+: /) });
  });

  it("refuses a YAML alias bomb instead of expanding it", () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]", ...Array.from({ length: 8 }, (_, i) => `${"bcdefghi"[i]}: &${"bcdefghi"[i]} [${Array(10).fill(`*${"abcdefgh"[i]}`).join(", ")}]`)].join("\n");
    const result = parseBriefYaml(bomb, src);
    expect(result.ok).toBe(false);
  });

  it("refuses a document that is not a mapping", () => {
    expect(parseBriefYaml("- just\n- a list\n", src)).toMatchObject({ ok: false, problems: [{ field: "(root)" }] });
  });

  it("accepts P-labels for priority and keeps an explicit id and claim key", () => {
    const result = parseBriefYaml(`${minimal}id: custom\npriority: P0\nclaim_key: docs:readme\n`, src);
    expect(result).toMatchObject({ ok: true, brief: { id: "custom", priority: 0, claim_key: "docs:readme" } });
  });

  it("hashes the normalized brief: equal briefs written differently hash the same", () => {
    const a = parseBriefYaml(minimal, src);
    const b = parseBriefYaml("size_cap: 300\nacceptance:\n  command: npm test\n  timeout: 10m\nconstraints:\n  paths: [src/**]\ngoal: Do a thing.\n", src);
    if (!a.ok || !b.ok) throw new Error("both should parse");
    expect(briefHash(a.brief)).toBe(briefHash(b.brief));
    expect(briefHash(a.brief)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe("parseIssueBody", () => {
  const form = [
    "### Goal",
    "",
    "Honor Retry-After on 429 and 503.",
    "",
    "### Allowed paths",
    "",
    "src/http/**",
    "test/http/**",
    "",
    "### Non-goals",
    "",
    "- exponential backoff",
    "- jitter",
    "",
    "### Acceptance command",
    "",
    "```sh",
    "npm test -- http",
    "```",
    "",
    "### Size cap",
    "",
    "300",
    "",
    "### Priority",
    "",
    "P1",
    "",
    "### Due",
    "",
    "_No response_",
  ].join("\n");

  it("reads the issue form's sections, with _No response_ as empty", () => {
    const result = parseIssueBody(form, { name: "issue #12", defaultId: "12" });
    expect(result).toMatchObject({
      ok: true,
      brief: { id: "12", goal: "Honor Retry-After on 429 and 503.", constraints: { paths: ["src/http/**", "test/http/**"] }, non_goals: ["exponential backoff", "jitter"], acceptance: { command: "npm test -- http" }, size_cap: 300, priority: 1 },
    });
    if (result.ok) expect(result.brief.due).toBeUndefined();
  });

  it("reads a fenced yaml block when there is no form", () => {
    const body = `Some context for humans.\n\n\`\`\`yaml\n${minimal}\`\`\`\n`;
    expect(parseIssueBody(body, { name: "issue #3", defaultId: "3" })).toMatchObject({ ok: true, brief: { id: "3", size_cap: 300 } });
  });

  it("names the missing and malformed fields of a form", () => {
    const result = parseIssueBody("### Goal\n\nx\n\n### Size cap\n\nlots\n", { name: "issue #4", defaultId: "4" });
    expect(result.ok).toBe(false);
    // As the form names them: the section title, then the brief field it fills.
    if (!result.ok) {
      expect(result.problems.map((p) => p.field).sort()).toEqual(["Acceptance command (acceptance.command)", "Allowed paths (constraints.paths)", "Size cap (size_cap)"]);
      expect(result.problems.find((p) => p.field.startsWith("Allowed paths"))?.message).toBe("this section is required");
    }
  });

  it("says how to write a brief when the body has none", () => {
    expect(parseIssueBody("just words", { name: "issue #5", defaultId: "5" })).toMatchObject({ ok: false, problems: [{ field: "(body)" }] });
  });
});
