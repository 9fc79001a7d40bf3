import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFileLedger } from "../../../src/adapters/local/file-ledger.js";
import type { AgentTool, ToolResult } from "../../../src/core/agent-loop/agent-tool.js";
import type { Ledger } from "../../../src/core/agent-loop/ledger.js";
import { LedgerError } from "../../../src/core/agent-loop/run-tool-calls.js";
import { runAgentLoop } from "../../../src/core/agent-loop/run-agent-loop.js";
import { FakeClock, ROOMY, ScriptedModel, call, calls } from "../../unit/agent-loop/fakes.js";

let dir = "";
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A payment-like tool whose provider deduplicates by idempotency key, as Stripe's does. */
function chargeTool(): AgentTool & { charges: string[] } {
  const byKey = new Map<string, ToolResult>();
  const tool = {
    name: "charge",
    description: "charges a card",
    inputSchema: { type: "object" },
    effect: "write" as const,
    charges: [] as string[],
    run(input: unknown, { idempotencyKey }: { idempotencyKey?: string }): Promise<ToolResult> {
      const key = idempotencyKey ?? "";
      const seen = byKey.get(key);
      if (seen !== undefined) return Promise.resolve(seen);
      tool.charges.push(JSON.stringify(input));
      const result: ToolResult = { ok: true, content: `charge ch_${tool.charges.length}` };
      byKey.set(key, result);
      return Promise.resolve(result);
    },
  };
  return tool;
}

const model = () => new ScriptedModel([calls(call("charge", { amount: 500, currency: "eur" })), calls(call("finish", { summary: "s" }))]);
const run = (tool: AgentTool, ledger: Ledger) =>
  runAgentLoop({ task: "invoice-42", prompt: "bill it", tools: [tool], budget: ROOMY }, { model: model(), ledger, clock: new FakeClock() });

describe("crash between a write and its ledger entry, with the file ledger", () => {
  it("is replayed by a new process without a second charge, and the ledger then answers alone", async () => {
    dir = await mkdtemp(join(tmpdir(), "bosun-crash-"));
    const tool = chargeTool();
    const dying = createFileLedger(dir);
    await expect(run(tool, { get: (k) => dying.get(k), put: () => Promise.reject(new Error("SIGKILL")) })).rejects.toThrow(LedgerError);
    expect(tool.charges).toHaveLength(1);

    const afterRestart = await run(tool, createFileLedger(dir));
    expect(afterRestart.stop.kind).toBe("done");
    expect(tool.charges).toHaveLength(1);
    expect(afterRestart.events).toContainEqual(expect.objectContaining({ name: "charge", outcome: "ok" }));

    const third = await run(tool, createFileLedger(dir));
    expect(third.events).toContainEqual(expect.objectContaining({ name: "charge", outcome: "replayed" }));
    expect(tool.charges).toHaveLength(1);
  });
});
