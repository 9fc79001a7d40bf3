import type { AgentTool, ToolResult } from "./agent-tool.js";
import { FINISH_TOOL_NAME } from "./agent-tool.js";
import { canonicalJson } from "../util/canonical-json.js";
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
  /** How often each exact call was made earlier in this run (kept by the caller across turns). */
  occurrences: Map<string, number> = new Map(),
  /** Bounds each tool call by the wall clock left; without it tools run unbounded. */
  limit?: ToolTimeLimit,
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
      const key = idempotencyKey(task, tool.name, call.input, nextOccurrence(occurrences, tool.name, call.input));
      events.push({ type: "tool", name: tool.name, effect: tool.effect, outcome: "withheld", key });
      return { kind: "irreversible", pending: { tool: tool.name, input: call.input, idempotencyKey: key }, events };
    } else if (tool.effect === "write") {
      const key = idempotencyKey(task, tool.name, call.input, nextOccurrence(occurrences, tool.name, call.input));
      const first = await ledgerCall(() => ledger.get(key));
      if (first !== undefined) {
        result = first;
        events.push({ type: "tool", name: tool.name, effect: tool.effect, outcome: "replayed", key });
      } else {
        result = await runSafely(tool, call.input, key, limit);
        // Only successes are recorded: a failed write has had no effect to protect, so a retry may run it.
        if (result.ok) await ledgerCall(() => ledger.put(key, result));
        events.push({ type: "tool", name: tool.name, effect: tool.effect, outcome: result.ok ? "ok" : "error", key });
      }
    } else {
      result = await runSafely(tool, call.input, undefined, limit);
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

/** The wall clock left for tools, and how to wait for it; the caller brings the timer (core has none). */
export interface ToolTimeLimit {
  /** Milliseconds left of the run's wall-clock budget when the call starts. */
  remainingMs(): number;
  /** Resolves after `ms`; an abort ends the wait early. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/**
 * A tool that throws has failed the call, not the run: the model sees the error and may recover.
 * With a limit, a tool still running when the wall clock runs out is answered as failed (the
 * loop then stops out of budget); the tool is told its time through `context.timeoutMs`.
 */
async function runSafely(tool: AgentTool, input: unknown, key: string | undefined, limit: ToolTimeLimit | undefined): Promise<ToolResult> {
  const timeoutMs = limit === undefined ? undefined : Math.max(0, limit.remainingMs());
  const context = { ...(key === undefined ? {} : { idempotencyKey: key }), ...(timeoutMs === undefined ? {} : { timeoutMs }) };
  const running = (async (): Promise<ToolResult> => {
    try {
      return await tool.run(input, context);
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  })();
  if (limit === undefined || timeoutMs === undefined) return running;
  const stopWaiting = new AbortController();
  const late: ToolResult = { ok: false, error: `tool '${tool.name}' did not finish within the ${timeoutMs} ms left of the wall-clock budget` };
  try {
    return await Promise.race([running, limit.sleep(timeoutMs, stopWaiting.signal).then(() => late)]);
  } finally {
    stopWaiting.abort();
  }
}

/** The occurrence of this exact call in the run so far (0 the first time), counted as it is made. */
function nextOccurrence(occurrences: Map<string, number>, tool: string, input: unknown): number {
  const id = canonicalJson({ tool, input });
  const n = occurrences.get(id) ?? 0;
  occurrences.set(id, n + 1);
  return n;
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
