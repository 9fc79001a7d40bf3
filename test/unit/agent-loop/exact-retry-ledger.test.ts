/**
 * The ledger answers only an exact retry. A file written A, then B, then A again must end up
 * holding A — judged by the file the tool really wrote, not by the loop's events. And a tool
 * that never answers is bounded by the wall clock left.
 */
import { describe, expect, it } from "vitest";
import type { AgentTool, ToolResult } from "../../../src/core/agent-loop/agent-tool.js";
import { runAgentLoop } from "../../../src/core/agent-loop/run-agent-loop.js";
import { createMemoryLedger } from "../../support/doubles/memory-ledger.js";
import { FakeClock, ROOMY, ScriptedModel, call, calls } from "./fakes.js";

/** A file on the outside: `content` is what it really holds; every real write is counted. */
function fileTool(): AgentTool & { content: string; writes: number } {
  const tool = {
    name: "write_file",
    description: "writes the file",
    inputSchema: { type: "object" },
    effect: "write" as const,
    content: "",
    writes: 0,
    run(input: unknown): Promise<ToolResult> {
      tool.writes += 1;
      tool.content = (input as { text: string }).text;
      return Promise.resolve({ ok: true, content: "written" });
    },
  };
  return tool;
}

const abaScript = () =>
  new ScriptedModel([
    calls(call("write_file", { text: "A" })),
    calls(call("write_file", { text: "B" })),
    calls(call("write_file", { text: "A" })),
    calls(call("finish", { summary: "s" })),
  ]);

describe("the ledger answers only an exact retry", () => {
  it("A, B, A: the third write is performed, so the file holds A", async () => {
    const tool = fileTool();
    const result = await runAgentLoop({ task: "t", prompt: "go", tools: [tool], budget: ROOMY }, { model: abaScript(), ledger: createMemoryLedger(), clock: new FakeClock() });
    expect(result.stop.kind).toBe("done");
    expect(tool.content).toBe("A");
    expect(tool.writes).toBe(3);
  });

  it("A twice in one turn is two writes", async () => {
    const tool = fileTool();
    const model = new ScriptedModel([calls(call("write_file", { text: "A" }), call("write_file", { text: "A" })), calls(call("finish", { summary: "s" }))]);
    await runAgentLoop({ task: "t", prompt: "go", tools: [tool], budget: ROOMY }, { model, ledger: createMemoryLedger(), clock: new FakeClock() });
    expect(tool.writes).toBe(2);
  });

  it("a retry of the whole run (same calls, same order) is answered from the ledger: no write runs twice", async () => {
    const tool = fileTool();
    const ledger = createMemoryLedger();
    await runAgentLoop({ task: "t", prompt: "go", tools: [tool], budget: ROOMY }, { model: abaScript(), ledger, clock: new FakeClock() });
    const again = await runAgentLoop({ task: "t", prompt: "go", tools: [tool], budget: ROOMY }, { model: abaScript(), ledger, clock: new FakeClock() });
    expect(tool.writes).toBe(3);
    expect(again.events.filter((e) => e.type === "tool" && e.name === "write_file").map((e) => (e.type === "tool" ? e.outcome : ""))).toEqual(["replayed", "replayed", "replayed"]);
  });
});

describe("tools are bounded by the wall clock left", () => {
  it("a tool that never answers ends the run out of budget (wall_clock), not a hang", async () => {
    let now = 1_000_000;
    const waits: number[] = [];
    const clock = {
      now: () => now,
      // Fake time: the wait for the wall clock passes at once, as if that much time had gone by.
      sleep: (ms: number) => {
        waits.push(ms);
        now += ms;
        return Promise.resolve();
      },
    };
    const stuck: AgentTool = { name: "build", description: "", inputSchema: {}, effect: "read", run: () => new Promise<ToolResult>(() => undefined) };
    const model = new ScriptedModel([calls(call("build", {})), calls(call("finish", { summary: "s" }))]);
    const result = await runAgentLoop({ task: "t", prompt: "go", tools: [stuck], budget: { ...ROOMY, wall_clock: 60 } }, { model, ledger: createMemoryLedger(), clock });
    expect(result.stop).toMatchObject({ kind: "out_of_budget", limit: "wall_clock" });
    expect(waits).toEqual([60_000]);
  });
});
