import { describe, expect, it } from "vitest";
import { AgentLoopConfigError, runAgentLoop } from "../../../src/core/agent-loop/run-agent-loop.js";
import type { AgentTool } from "../../../src/core/agent-loop/agent-tool.js";
import { idempotencyKey } from "../../../src/core/agent-loop/idempotency-key.js";
import { createMemoryLedger } from "../../support/doubles/memory-ledger.js";
import { FakeClock, ROOMY, ScriptedModel, call, calls, recordingTool, reply } from "./fakes.js";

const run = (model: ScriptedModel, tools: readonly AgentTool[] = []) =>
  runAgentLoop({ task: "t", prompt: "go", tools, budget: ROOMY }, { model, ledger: createMemoryLedger(), clock: new FakeClock() });

describe("runAgentLoop: only the finish tool is done", () => {
  it("is done, with the model's summary kept apart from the stop, when finish is called", async () => {
    const result = await run(new ScriptedModel([calls(call("finish", { summary: "fixed it" }))]));
    expect(result.stop).toEqual({ kind: "done", reason: "finish called" });
    expect(result.summary).toBe("fixed it");
  });

  it("is blocked when the model ends its turn without calling finish", async () => {
    const result = await run(new ScriptedModel([reply("end_turn", [{ type: "text", text: "All done!" }])]));
    expect(result.stop).toMatchObject({ kind: "blocked" });
  });

  it("is blocked when the model ends its turn with empty content", async () => {
    const result = await run(new ScriptedModel([reply("end_turn", [])]));
    expect(result.stop).toMatchObject({ kind: "blocked" });
  });

  it("is blocked when the model says tool_use but calls nothing", async () => {
    const result = await run(new ScriptedModel([reply("tool_use", [{ type: "text", text: "hmm" }])]));
    expect(result.stop).toEqual({ kind: "blocked", reason: "model asked for tools (tool_use) but called none" });
  });

  it("runs the calls before finish in the same turn, and none after it", async () => {
    const before = recordingTool("before", "read");
    const after = recordingTool("after", "read");
    const result = await run(new ScriptedModel([calls(call("before"), call("finish", { summary: "s" }), call("after"))]), [before, after]);
    expect(result.stop.kind).toBe("done");
    expect([before.seen.length, after.seen.length]).toEqual([1, 0]);
  });

  it("refuses a tool that takes the finish tool's name, and two tools with one name", async () => {
    await expect(run(new ScriptedModel([]), [recordingTool("finish", "read")])).rejects.toThrow(AgentLoopConfigError);
    await expect(run(new ScriptedModel([]), [recordingTool("x", "read"), recordingTool("x", "write")])).rejects.toThrow(AgentLoopConfigError);
  });
});

describe("runAgentLoop: irreversible tools", () => {
  it("never runs an irreversible tool and stops blocked, naming what was asked", async () => {
    const deploy = recordingTool("deploy", "irreversible");
    const write = recordingTool("write", "write");
    const model = new ScriptedModel([calls(call("write", { p: 1 }), call("deploy", { env: "prod" }), call("finish", { summary: "s" }))]);
    const result = await run(model, [write, deploy]);
    expect(deploy.seen).toEqual([]);
    expect(write.seen).toHaveLength(1);
    expect(result.stop).toEqual({ kind: "blocked", reason: "irreversible tool 'deploy' needs a human" });
    expect(result.pending).toEqual({ tool: "deploy", input: { env: "prod" }, idempotencyKey: idempotencyKey("t", "deploy", { env: "prod" }) });
    expect(model.requests).toHaveLength(1);
  });
});

describe("runAgentLoop: the conversation", () => {
  it("answers every tool call with a tool_result carrying its id, and offers the finish tool", async () => {
    const look = recordingTool("look", "read", (input) => ({ ok: true, content: `saw ${JSON.stringify(input)}` }));
    const first = call("look", { path: "a" });
    const model = new ScriptedModel([calls(first), calls(call("finish", { summary: "s" }))]);
    await run(model, [look]);
    const second = model.requests[1];
    expect(second?.tools.map((t) => t.name)).toEqual(["look", "finish"]);
    expect(second?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(second?.messages[2]?.content).toEqual([
      { type: "tool_result", toolUseId: first.type === "tool_use" ? first.id : "", content: 'saw {"path":"a"}', isError: false },
    ]);
  });

  it("resends after pause_turn with the paused content, and counts it as a step", async () => {
    const paused = { type: "opaque", block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} } } as const;
    const model = new ScriptedModel([reply("pause_turn", [paused]), calls(call("finish", { summary: "s" }))]);
    const result = await run(model);
    expect(result.stop.kind).toBe("done");
    expect(result.usage.steps).toBe(2);
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: "assistant", content: [paused] });
  });

  it("spends the step budget on pause_turn resends", async () => {
    const model = new ScriptedModel([reply("pause_turn", [{ type: "text", text: "..." }])]);
    const result = await runAgentLoop(
      { task: "t", prompt: "go", tools: [], budget: { ...ROOMY, steps: 2 } },
      { model, ledger: createMemoryLedger(), clock: new FakeClock() },
    );
    expect(result.stop).toMatchObject({ kind: "out_of_budget", limit: "steps" });
    expect(model.requests).toHaveLength(2);
  });

  it.each([
    ["retry", "retry"],
    ["refuse", "refuse"],
    ["unclassified", "unclassified"],
  ] as const)("fails as %s when the model call fails as %s", async (kind, failure) => {
    const result = await run(new ScriptedModel([{ ok: false, kind, reason: "HTTP 4xx/5xx" }]));
    expect(result.stop).toMatchObject({ kind: "failed", failure });
  });
});
