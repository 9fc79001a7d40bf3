import { describe, expect, it } from "vitest";
import type { AgentTool, ToolResult } from "../../../src/core/agent-loop/agent-tool.js";
import type { Ledger } from "../../../src/core/agent-loop/ledger.js";
import { idempotencyKey } from "../../../src/core/agent-loop/idempotency-key.js";
import { LedgerError } from "../../../src/core/agent-loop/run-tool-calls.js";
import { runAgentLoop } from "../../../src/core/agent-loop/run-agent-loop.js";
import { createMemoryLedger } from "../../support/doubles/memory-ledger.js";
import { FakeClock, ROOMY, ScriptedModel, call, calls } from "./fakes.js";

/** A write tool with an outside world: `effects` is what really happened, once per line. */
function appendTool(honoursKey: boolean): AgentTool & { effects: string[]; calls: number } {
  const applied = new Set<string>();
  const tool = {
    name: "append_line",
    description: "appends a line to the changelog",
    inputSchema: { type: "object" },
    effect: "write" as const,
    effects: [] as string[],
    calls: 0,
    run(input: unknown, context: { idempotencyKey?: string }): Promise<ToolResult> {
      tool.calls += 1;
      const key = context.idempotencyKey ?? "";
      if (!honoursKey || !applied.has(key)) {
        applied.add(key);
        tool.effects.push((input as { line: string }).line);
      }
      return Promise.resolve({ ok: true, content: "appended" });
    },
  };
  return tool;
}

/** The model asks for the same write each run, its arguments in a different order the second time. */
const script = (order: "ab" | "ba") =>
  new ScriptedModel([
    calls(call("append_line", order === "ab" ? { line: "fix #9", file: "CHANGELOG" } : { file: "CHANGELOG", line: "fix #9" })),
    calls(call("finish", { summary: "s" })),
  ]);

/** A ledger whose process dies after the tool's effect and before the entry is written. */
const crashingOnPut = (ledger: Ledger): Ledger => ({ get: (k) => ledger.get(k), put: () => Promise.reject(new Error("killed")) });

const run = (tool: AgentTool, ledger: Ledger, model: ScriptedModel) =>
  runAgentLoop({ task: "item-9", prompt: "go", tools: [tool], budget: ROOMY }, { model, ledger, clock: new FakeClock() });

describe("idempotent writes", () => {
  it("passes the write its key: SHA-256 of canonical {task, tool, arguments}", async () => {
    const tool = appendTool(true);
    const result = await run(tool, createMemoryLedger(), script("ab"));
    const key = idempotencyKey("item-9", "append_line", { line: "fix #9", file: "CHANGELOG" });
    expect(result.events).toContainEqual({ type: "tool", name: "append_line", effect: "write", outcome: "ok", key });
  });

  it("answers a repeated write from the ledger without running the tool", async () => {
    const tool = appendTool(false);
    const ledger = createMemoryLedger();
    await run(tool, ledger, script("ab"));
    const again = await run(tool, ledger, script("ba"));
    expect(tool.calls).toBe(1);
    expect(tool.effects).toEqual(["fix #9"]);
    expect(again.events.find((e) => e.type === "tool" && e.name === "append_line")).toMatchObject({ outcome: "replayed" });
  });

  it("replays a crash between the write and its ledger entry without a second effect when the tool honours the key", async () => {
    const tool = appendTool(true);
    const ledger = createMemoryLedger();
    await expect(run(tool, crashingOnPut(ledger), script("ab"))).rejects.toThrow(LedgerError);
    expect(tool.effects).toEqual(["fix #9"]);
    expect(ledger.entries.size).toBe(0);

    const replay = await run(tool, ledger, script("ba"));
    expect(replay.stop.kind).toBe("done");
    expect(tool.calls).toBe(2); // the ledger could not know; the key let the tool tell
    expect(tool.effects).toEqual(["fix #9"]);
    expect(ledger.entries.size).toBe(1);
  });

  it("cannot save a tool that ignores the key from that crash (why tools should honour it)", async () => {
    const tool = appendTool(false);
    const ledger = createMemoryLedger();
    await expect(run(tool, crashingOnPut(ledger), script("ab"))).rejects.toThrow(LedgerError);
    await run(tool, ledger, script("ab"));
    expect(tool.effects).toEqual(["fix #9", "fix #9"]);
  });

  it("does not record a failed write, so a retry runs it again", async () => {
    let attempts = 0;
    const flaky: AgentTool = {
      name: "push",
      description: "",
      inputSchema: {},
      effect: "write",
      run: () => Promise.resolve(++attempts === 1 ? { ok: false, error: "503" } : { ok: true, content: "pushed" }),
    };
    const ledger = createMemoryLedger();
    const model = new ScriptedModel([calls(call("push", { ref: "x" })), calls(call("push", { ref: "x" })), calls(call("finish", { summary: "s" }))]);
    await run(flaky, ledger, model);
    expect(attempts).toBe(2);
    expect([...ledger.entries.values()]).toEqual([{ ok: true, content: "pushed" }]);
  });
});
