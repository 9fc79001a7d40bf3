/** The expression evaluator against GitHub's documented rules, as a table. */
import { describe, expect, test } from "vitest";
import { evaluateSource } from "./evaluate-expression.js";
import { evaluateIf, interpolate } from "./interpolate.js";
import type { Value } from "./expression-values.js";

const contexts: Record<string, Value> = {
  github: { event_name: "workflow_run", event: { workflow_run: { id: 7, event: "pull_request", head_sha: "abc" }, issue: { number: 3 } }, token: "t0ken", repository: "acme/app" },
  inputs: { "head-sha": "f00", item: "12", empty: "" },
  needs: { check: { result: "success", outputs: { brief: '{"id":"x"}' } }, agent: { result: "failure", outputs: {} } },
  steps: { app: { outputs: { token: "ghs", "app-slug": "bosun" }, outcome: "success", conclusion: "success" } },
  runner: { temp: "/home/runner/_temp", os: "Linux" },
  env: { COMMAND: "npm test" },
  vars: {},
  list: ["a", "B", 3],
};
const scope = { contexts, status: { success: true, failure: false, cancelled: false } };
const ev = (s: string) => evaluateSource(s, scope);

describe("expressions", () => {
  test.each<[string, Value]>([
    ["github.event_name == 'workflow_dispatch' || github.event.workflow_run.event == 'pull_request'", true],
    ["github.event.workflow_run.head_sha || inputs['head-sha']", "abc"],
    ["github.event.pull_request.number || github.event.issue.number || github.event.workflow_run.head_sha", 3],
    ["inputs['head-sha']", "f00"],
    ["inputs.missing", null],
    ["inputs.empty || 'fallback'", "fallback"],
    ["inputs.item && 'yes'", "yes"],
    ["inputs.empty && 'yes'", ""],
    ["needs.check.result == 'success'", true],
    ["needs.CHECK.RESULT == 'SUCCESS'", true],
    ["fromJSON(needs.check.outputs.brief).id", "x"],
    ["toJSON(steps.app.outputs['app-slug'])", '"bosun"'],
    ["format('{0}[bot] {{x}}', steps.app.outputs.app-slug)", "bosun[bot] {x}"],
    ["join(list, '+')", "a+B+3"],
    ["join(list)", "a,B,3"],
    ["contains(list, 'b')", true],
    ["contains('Hello World', 'WORLD')", true],
    ["startsWith('refs/heads/main', 'REFS/')", true],
    ["endsWith(runner.temp, '/_temp')", true],
    ["1 == '1'", true],
    ["'' == 0", true],
    ["null == 0", true],
    ["true == 1", true],
    ["'abc' == 0", false],
    ["'0x10' == 16", true],
    ["!inputs.empty", true],
    ["!(1 < 2)", false],
    ["'b' > 'A'", true],
    ["github == github", true],
    ["list == list", true],
    ["-1 < 0", true],
    ["'it''s'", "it's"],
    ["success() && !failure()", true],
    ["always()", true],
    ["cancelled()", false],
  ])("%s", (source, expected) => {
    expect(ev(source)).toEqual(expected);
  });

  test.each([
    ["unknownctx.x", /unknown context 'unknownctx'/],
    ["github.event.*", /unexpected character '\*'/],
    ["1 + 1", /unexpected character '\+'/],
    ['"double"', /unexpected character '"'/],
    ["nope()", /unknown function 'nope'/],
    ["contains('a')", /contains\(\) takes 2 arguments/],
    ["'open", /unterminated string/],
    ["fromJSON('{')", /fromJSON: not JSON/],
  ])("%s is an error, never silently empty", (source, message) => {
    expect(() => ev(source)).toThrow(message);
  });

  test("interpolation: text around expressions, objects as Object, null as empty", () => {
    expect(interpolate("bosun #${{ inputs.item }} epoch ${{ inputs.missing }}", scope)).toBe("bosun #12 epoch ");
    expect(interpolate("${{ github.event }}", scope)).toBe("Object");
    expect(interpolate("${{ runner.temp }}/bosun-out/result.json", scope)).toBe("/home/runner/_temp/bosun-out/result.json");
    expect(interpolate("${{ 'a}}b' }}", scope)).toBe("a}}b");
    expect(() => interpolate("${{ inputs.item", scope)).toThrow(/without its `\}\}`/);
  });

  test("if: implicit success() unless a status function is used; with or without ${{ }}", () => {
    const failing = { contexts, status: { success: false, failure: true, cancelled: false } };
    expect(evaluateIf(undefined, scope)).toBe(true);
    expect(evaluateIf(undefined, failing)).toBe(false);
    expect(evaluateIf("needs.check.result == 'success'", failing)).toBe(false);
    expect(evaluateIf("always() && needs.check.result == 'success'", failing)).toBe(true);
    expect(evaluateIf("${{ failure() }}", failing)).toBe(true);
    expect(evaluateIf("github.event_name != 'issue_comment' || github.event.issue.pull_request", scope)).toBe(true);
  });
});
