import { describe, expect, it } from "vitest";
import { agentEnv, parseEnvNames } from "../../../src/core/agents/agent-env.js";
import { claudeEditRules } from "../../../src/core/agents/claude-permission-rules.js";
import { combineStops } from "../../../src/core/agents/combine-stops.js";
import { isItemBranch, itemBranch } from "../../../src/core/agents/item-branch.js";
import { PRESETS } from "../../../src/core/agents/presets.js";
import { shellQuote } from "../../../src/core/agents/shell-quote.js";
import { blocked, done, failed, outOfBudget } from "../../../src/core/stop/stop.js";

describe("Claude Code edit rules from gitignore paths", () => {
  it.each([
    [["src/http/**"], ["Edit(src/http/**)"], []],
    [["README.md"], ["Edit(README.md)", "Edit(**/README.md)"], []],
    [["docs/"], ["Edit(docs/**)", "Edit(**/docs/**)"], []],
    [["/CHANGELOG.md"], ["Edit(./CHANGELOG.md)"], []],
    [["src/**", "!src/secrets/**"], ["Edit(src/**)"], ["Edit(src/secrets/**)"]],
  ])("%j allows %j and denies %j", (paths, allow, deny) => {
    expect(claudeEditRules(paths)).toEqual({ allow, deny });
  });
});

describe("the agent's environment", () => {
  const env = { PATH: "/bin", HOME: "/h", GITHUB_TOKEN: "ghs_x", ACTIONS_RUNTIME_TOKEN: "rt", "INPUT_GITHUB-TOKEN": "t", ANTHROPIC_API_KEY: "sk-a", OPENAI_API_KEY: "sk-o", MY_SETTING: "1", AWS_SECRET_ACCESS_KEY: "aws" };
  it("holds the base names, the preset's own credentials and Bosun's variables, nothing else", () => {
    expect(agentEnv(PRESETS["claude-code"], env, [], { BOSUN_ITEM: "x" })).toEqual({ PATH: "/bin", HOME: "/h", ANTHROPIC_API_KEY: "sk-a", BOSUN_ITEM: "x" });
  });
  it("adds names the workflow lists, and refuses a runner credential among them", () => {
    expect(agentEnv(PRESETS.codex, env, ["MY_SETTING"], {})).toEqual({ PATH: "/bin", HOME: "/h", OPENAI_API_KEY: "sk-o", MY_SETTING: "1" });
    expect(() => agentEnv(PRESETS.codex, env, ["GITHUB_TOKEN"], {})).toThrow(/GITHUB_TOKEN is the runner's own credential/);
    expect(parseEnvNames("A, B\nC", "agent-env")).toEqual({ names: ["A", "B", "C"] });
    expect(parseEnvNames("A B=1", "agent-env")).toEqual({ problem: "agent-env: not a variable name: B=1" });
    expect(parseEnvNames("ACTIONS_RUNTIME_TOKEN", "agent-env")).toMatchObject({ problem: expect.stringMatching(/runner's own credential/) });
  });
});

describe("the stop of a preset run", () => {
  it.each([
    ["the model's blocked lowers a done", done(), { ok: true as const, stop: blocked("needs src/db") }, blocked("needs src/db")],
    ["the model's done cannot overrule a step budget", outOfBudget("steps"), { ok: true as const, stop: done() }, outOfBudget("steps")],
    ["the model's done cannot overrule a failure", failed("retry", "429"), { ok: true as const, stop: done() }, failed("retry", "429")],
    ["an unreadable result file is cannot-classify", done(), { ok: false as const, problem: "not JSON" }, failed("unclassified", "result file is not a valid stop: not JSON")],
    ["the model's done, with the runner's, is done", done(), { ok: true as const, stop: done() }, done()],
  ])("%s", (_name, output, file, expected) => {
    expect(combineStops(output, file, true)).toEqual(expected);
  });
  it("an agent that just stopped has not claimed completion, where it could have written the file", () => {
    expect(combineStops(done(), undefined, true)).toMatchObject({ kind: "blocked", reason: expect.stringMatching(/without declaring/) });
    // aider cannot write the file: its runner's done stands.
    expect(combineStops(done(), undefined, false)).toEqual(done());
  });
});

describe("reading hostile or broken agent output", () => {
  it("treats negative, non-numeric or missing costs as not reported", () => {
    const r = PRESETS["claude-code"].readOutput({ stdout: JSON.stringify({ type: "result", subtype: "success", is_error: false, total_cost_usd: -5, usage: { input_tokens: "lots", output_tokens: -1 } }), stderr: "", exit: 0 });
    expect(r.stop).toEqual(done());
    expect(r).not.toHaveProperty("usd");
    expect(r).not.toHaveProperty("tokens");
  });
  it("does not take a JSON result embedded in prose for a structured one unless it is a line of its own", () => {
    expect(PRESETS["claude-code"].readOutput({ stdout: 'I would print {"type":"result","subtype":"success"} here', stderr: "", exit: 0 }).stop).toMatchObject({ kind: "failed", failure: "unclassified" });
  });
  it("codex: an exit 0 with no completed turn is not done", () => {
    expect(PRESETS.codex.readOutput({ stdout: '{"type":"thread.started"}\n', stderr: "", exit: 0 }).stop).toMatchObject({ kind: "failed", failure: "unclassified" });
  });
  it("aider: a non-zero exit is never done, whatever it printed", () => {
    expect(PRESETS.aider.readOutput({ stdout: "Tokens: 1k sent, 2 received. Cost: $0.50 message, $0.50 session.\nApplied edit", stderr: "", exit: 2 })).toMatchObject({ stop: { kind: "failed" }, tokens: 1002, usd: 0.5 });
  });
});

describe("the item's branch", () => {
  it("is named from the issue and the goal, the same every time, and recognised whatever the slug", () => {
    expect(itemBranch(42, "Honor Retry-After on 429 and 503 in the HTTP client wrapper.")).toBe("bosun/42-honor-retry-after-on-429-and-503-in-the");
    expect(itemBranch(7, "!!!")).toBe("bosun/7");
    expect(isItemBranch("bosun/42-anything", 42)).toBe(true);
    expect(isItemBranch("bosun/421-anything", 42)).toBe(false);
  });
  it("quotes words so a hostile goal stays one shell word", () => {
    expect(shellQuote(`it's "$(rm -rf /)"`)).toBe(`'it'\\''s "$(rm -rf /)"'`);
  });
});
