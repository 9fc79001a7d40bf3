import type { AgentTool, ToolResult } from "./agent-tool.js";
import { FINISH_TOOL_NAME } from "./agent-tool.js";
import { idempotencyKey } from "./idempotency-key.js";
import type { Ledger } from "./ledger.js";
import type { LoopEvent } from "./loop-event.js";
import type { ContentBlock } from "./model-port.js";

type ToolUse = Extract<ContentBlock, { type: "tool_use" }>;
type ToolResultBlock = Extract<ContentBlock, { type: "tool_result" }>;

/** An irreversible call the loop did not make, for the human who now decides. */
export interface PendingAction {
  readonly tool: string;
  readonly input: unknown;
  readonly idempotencyKey: string;
}

/** How one turn's tool calls went: all answered, the finish tool called, or withheld for a human. */
export type ToolCallsOutcome =
  | {
      readonly kind: "answered" | "finished";
      readonly results: readonly ToolResultBlock[];
      readonly events: readonly LoopEvent[];
      readonly consecutiveToolErrors: number;
      readonly toolErrors: number;
      readonly summary?: string;
    }
  | { readonly kind: "irreversible"; readonly pending: PendingAction; readonly events: readonly LoopEvent[] };

/** Thrown when the ledger cannot answer: the loop could no longer promise that a write runs once. */
export class LedgerError extends Error {
  override readonly name = "LedgerError";
}

/**
 * Runs one turn's tool calls in the order the model made them. An irreversible call stops the turn
 * before it runs (calls before it have run); a finish call ends it (calls after it are not run).
 * Writes go through the ledger: a key it already holds is answered from its first result.
 */
export async function runToolCalls(
  task: string,
  calls: readonly ToolUse[],
  tools: ReadonlyMap<string, AgentTool>,
  ledger: Ledger,
  consecutiveErrorsBefore: number,
): Promise<ToolCallsOutcome> {
  const results: ToolResultBlock[] = [];
  const events: LoopEvent[] = [];
  let consecutive = consecutiveErrorsBefore;
  let errors = 0;
  const answered = (kind: "answered" | "finished", summary?: string): ToolCallsOutcome => ({
    kind,
    results,
    events,
    consecutiveToolErrors: consecutive,
    toolErrors: errors,
    ...(summary === undefined ? {} : { summary }),
  });

  for (const call of calls) {
    if (call.name === FINISH_TOOL_NAME) {
      events.push({ type: "tool", name: call.name, effect: "finish", outcome: "ok" });
      return answered("finished", summaryOf(call.input));
    }
    const tool = tools.get(call.name);
    let result: ToolResult;
    if (tool === undefined) {
      result = { ok: false, error: `unknown tool '${call.name}'` };
      events.push({ type: "tool", name: call.name, effect: "unknown", outcome: "error" });
    } else if (tool.effect === "irreversible") {
      const key = idempotencyKey(task, tool.name, call.input);
      events.push({ type: "tool", name: tool.name, effect: tool.effect, outcome: "withheld", key });
      return { kind: "irreversible", pending: { tool: tool.name, input: call.input, idempotencyKey: key }, events };
    } else if (tool.effect === "write") {
      const key = idempotencyKey(task, tool.name, call.input);
      const first = await ledgerCall(() => ledger.get(key));
      if (first !== undefined) {
        result = first;
        events.push({ type: "tool", name: tool.name, effect: tool.effect, outcome: "replayed", key });
      } else {
        result = await runSafely(tool, call.input, key);
        // Only successes are recorded: a failed write has had no effect to protect, so a retry may run it.
        if (result.ok) await ledgerCall(() => ledger.put(key, result));
        events.push({ type: "tool", name: tool.name, effect: tool.effect, outcome: result.ok ? "ok" : "error", key });
      }
    } else {
      result = await runSafely(tool, call.input, undefined);
      events.push({ type: "tool", name: tool.name, effect: tool.effect, outcome: result.ok ? "ok" : "error" });
    }
    if (result.ok) consecutive = 0;
    else {
      consecutive += 1;
      errors += 1;
    }
    results.push({
      type: "tool_result",
      toolUseId: call.id,
      content: result.ok ? result.content : result.error,
      isError: !result.ok,
    });
  }
  return answered("answered");
}

/** A tool that throws has failed the call, not the run: the model sees the error and may recover. */
async function runSafely(tool: AgentTool, input: unknown, key: string | undefined): Promise<ToolResult> {
  try {
    return await tool.run(input, key === undefined ? {} : { idempotencyKey: key });
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

async function ledgerCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new LedgerError(`ledger failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

function summaryOf(input: unknown): string | undefined {
  if (input === null || typeof input !== "object") return undefined;
  const summary = (input as Record<string, unknown>)["summary"];
  return typeof summary === "string" ? summary : undefined;
}
