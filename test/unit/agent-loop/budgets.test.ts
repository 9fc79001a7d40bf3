import { describe, expect, it } from "vitest";
import { runAgentLoop } from "../../../src/core/agent-loop/run-agent-loop.js";
import { createMemoryLedger } from "../../support/doubles/memory-ledger.js";
import { FakeClock, ROOMY, ScriptedModel, call, calls, recordingTool, reply } from "./fakes.js";

const run = (model: ScriptedModel, budget: Partial<typeof ROOMY>, tools = [recordingTool("look", "read")], clock = new FakeClock()) =>
  runAgentLoop({ task: "t", prompt: "go", tools, budget: { ...ROOMY, ...budget } }, { model, ledger: createMemoryLedger(), clock });

describe("budgets, checked before every step", () => {
  it("ends with out_of_budget(steps) after exactly `steps` model calls", async () => {
    const model = new ScriptedModel([calls(call("look"))]);
    const result = await run(model, { steps: 3 });
    expect(result.stop).toMatchObject({ kind: "out_of_budget", limit: "steps" });
    expect(model.requests).toHaveLength(3);
    expect(result.usage.steps).toBe(3);
  });

  it("ends with out_of_budget(tokens) once the reported tokens reach the limit, and caps each call to what is left", async () => {
    const model = new ScriptedModel([reply("tool_use", [call("look")], 600)]);
    const result = await runAgentLoop(
      { task: "t", prompt: "go", tools: [recordingTool("look", "read")], budget: { ...ROOMY, tokens: 1000 }, maxTokensPerStep: 4096 },
      { model, ledger: createMemoryLedger(), clock: new FakeClock() },
    );
    // 600 after one call (< 1000, go on); 1200 after two (>= 1000, stop).
    expect(result.stop).toMatchObject({ kind: "out_of_budget", limit: "tokens" });
    expect(result.usage.tokens).toBe(1200);
    expect(model.requests.map((r) => r.maxTokens)).toEqual([1000, 400]);
  });

  it("ends with out_of_budget(wall_clock) when the clock passes the limit between steps", async () => {
    const clock = new FakeClock();
    const model = new ScriptedModel([calls(call("look"))], () => (clock.ms += 10_000));
    const result = await run(model, { wall_clock: 25 }, undefined, clock);
    // Calls start at 0s, 10s, 20s; at 30s the 25s budget is spent.
    expect(result.stop).toMatchObject({ kind: "out_of_budget", limit: "wall_clock" });
    expect(model.requests.map((r) => r.timeoutMs)).toEqual([25_000, 15_000, 5_000]);
  });

  it("ends with out_of_budget(wall_clock) when the model call itself outlives the clock", async () => {
    const clock = new FakeClock();
    const model = new ScriptedModel([{ ok: false, kind: "timeout", reason: "aborted" }], () => (clock.ms += 60_000));
    const result = await run(model, { wall_clock: 30 }, undefined, clock);
    expect(result.stop).toMatchObject({ kind: "out_of_budget", limit: "wall_clock" });
  });

  it("ends with out_of_budget(tool_errors) after that many failed tool calls in a row", async () => {
    const broken = recordingTool("look", "read", () => ({ ok: false, error: "no such file" }));
    const model = new ScriptedModel([calls(call("look"))]);
    const result = await run(model, { tool_errors: 3 }, [broken]);
    expect(result.stop).toMatchObject({ kind: "out_of_budget", limit: "tool_errors" });
    expect(broken.seen).toHaveLength(3);
    expect(result.usage.toolErrors).toBe(3);
  });

  it("resets the tool-error count when a tool call succeeds", async () => {
    let n = 0;
    // fail, fail, ok, fail, fail, ok, ... never three in a row
    const flaky = recordingTool("look", "read", () => (++n % 3 === 0 ? { ok: true, content: "ok" } : { ok: false, error: "flaky" }));
    const model = new ScriptedModel([calls(call("look"))]);
    const result = await run(model, { tool_errors: 3, steps: 9 }, [flaky]);
    expect(result.stop).toMatchObject({ kind: "out_of_budget", limit: "steps" });
    expect(result.usage.toolErrors).toBe(6);
  });

  it("counts an unknown tool as a tool error and tells the model", async () => {
    const model = new ScriptedModel([calls(call("nope")), calls(call("finish", { summary: "s" }))]);
    const result = await run(model, {});
    expect(result.stop).toEqual({ kind: "done", reason: "finish called" });
    expect(result.usage.toolErrors).toBe(1);
    expect(model.requests[1]?.messages.at(-1)?.content[0]).toMatchObject({ type: "tool_result", isError: true, content: "unknown tool 'nope'" });
  });

  it("counts a tool that throws as a tool error, not a crash", async () => {
    const thrower = recordingTool("look", "read", () => {
      throw new Error("disk on fire");
    });
    const model = new ScriptedModel([calls(call("look"))]);
    const result = await run(model, { tool_errors: 2 }, [thrower]);
    expect(result.stop).toMatchObject({ kind: "out_of_budget", limit: "tool_errors" });
  });
});
