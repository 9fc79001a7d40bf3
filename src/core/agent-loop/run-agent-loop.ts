import type { Budget } from "../brief/brief.js";
import type { Stop } from "../stop/stop.js";
import { blocked, failed, outOfBudget } from "../stop/stop.js";
import { stopFromModel } from "../stop/stop-from-model.js";
import type { AgentTool } from "./agent-tool.js";
import { FINISH_TOOL_NAME, FINISH_TOOL_SPEC } from "./agent-tool.js";
import { checkBudget } from "./check-budget.js";
import type { Ledger } from "./ledger.js";
import type { LoopEvent } from "./loop-event.js";
import type { ContentBlock, Message, Model, ModelReply, ToolSpec } from "./model-port.js";
import type { PendingAction, ToolTimeLimit } from "./run-tool-calls.js";
import { runToolCalls } from "./run-tool-calls.js";

/** Time, declared by its consumer; milliseconds, any origin. */
export interface AgentClock {
  now(): number;
  /** When given, tool calls are bounded by the wall clock left (an abort ends the wait early). */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

/** What to run: the task, the tools, and the budgets (use Infinity for a limit you do not want). */
export interface AgentLoopConfig {
  /** Stable id of the task (an item id): part of every idempotency key, so keep it across retries. */
  readonly task: string;
  readonly prompt: string;
  readonly system?: string;
  readonly tools: readonly AgentTool[];
  readonly budget: Budget;
  /** Output cap per model call; lowered to the tokens left in the budget. Default 4096. */
  readonly maxTokensPerStep?: number;
}

export interface AgentLoopPorts {
  readonly model: Model;
  readonly ledger: Ledger;
  readonly clock: AgentClock;
}

/** How a run ended and what it consumed; `pending` is the irreversible call a human must decide on. */
export interface AgentRunResult {
  readonly stop: Stop;
  readonly usage: { readonly steps: number; readonly tokens: number; readonly toolErrors: number; readonly wallClockMs: number };
  readonly summary?: string;
  readonly pending?: PendingAction;
  readonly events: readonly LoopEvent[];
  readonly messages: readonly Message[];
}

/** A misconfigured loop (a tool named `finish`, two tools with one name): the caller's bug. */
export class AgentLoopConfigError extends Error {
  override readonly name = "AgentLoopConfigError";
}

const DEFAULT_MAX_TOKENS_PER_STEP = 4096;

/**
 * Runs a model with tools until it calls `finish`, is blocked, fails, or spends a budget. Budgets
 * are checked before every model call, so one call can overshoot `tokens` by at most its output cap
 * (which is lowered to what is left) and `wall_clock` only by the time its tools take.
 * Throws only for a misconfiguration or a ledger that fails (LedgerError); everything else is a Stop.
 */
export async function runAgentLoop(config: AgentLoopConfig, ports: AgentLoopPorts): Promise<AgentRunResult> {
  const tools = toolsByName(config.tools);
  const specs: ToolSpec[] = [...config.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })), FINISH_TOOL_SPEC];
  const { budget } = config;
  const maxPerStep = config.maxTokensPerStep ?? DEFAULT_MAX_TOKENS_PER_STEP;
  const startedAt = ports.clock.now();
  const messages: Message[] = [{ role: "user", content: [{ type: "text", text: config.prompt }] }];
  const events: LoopEvent[] = [];
  let steps = 0;
  let tokens = 0;
  let consecutiveToolErrors = 0;
  let toolErrors = 0;
  // Each exact write's occurrence in this run: part of its idempotency key (see idempotencyKey).
  const occurrences = new Map<string, number>();
  const clock = ports.clock;
  const limit: ToolTimeLimit | undefined =
    clock.sleep === undefined
      ? undefined
      : { remainingMs: () => budget.wall_clock * 1000 - (clock.now() - startedAt), sleep: (ms, signal) => (clock.sleep as NonNullable<AgentClock["sleep"]>)(ms, signal) };

  const end = (stop: Stop, extra: { summary?: string; pending?: PendingAction } = {}): AgentRunResult => ({
    stop,
    usage: { steps, tokens, toolErrors, wallClockMs: ports.clock.now() - startedAt },
    ...extra,
    events,
    messages,
  });

  for (;;) {
    const elapsedMs = ports.clock.now() - startedAt;
    const spent = checkBudget({ steps, tokens, consecutiveToolErrors, elapsedMs }, budget);
    if (spent !== undefined) return end(spent);

    steps += 1;
    const reply = await ports.model.complete({
      ...(config.system === undefined ? {} : { system: config.system }),
      messages: [...messages],
      tools: specs,
      maxTokens: Math.max(1, Math.min(maxPerStep, budget.tokens - tokens)),
      timeoutMs: budget.wall_clock * 1000 - elapsedMs,
    });
    if (!reply.ok) return end(stopForFailedCall(reply, ports.clock.now() - startedAt, budget));

    const { response } = reply;
    const used = response.usage.inputTokens + response.usage.outputTokens;
    tokens += used;
    events.push({ type: "step", step: steps, stopReason: response.stopReason, tokens: used });

    const turn = stopFromModel(response.stopReason, false);
    if (turn.next === "stop") return end(turn.stop);
    // The API rejects an empty assistant message; an empty paused turn is resent as it was.
    if (response.content.length > 0) messages.push({ role: "assistant", content: response.content });
    if (turn.next === "resend") continue;

    const calls = response.content.filter((b): b is Extract<ContentBlock, { type: "tool_use" }> => b.type === "tool_use");
    if (calls.length === 0) return end(blocked("model asked for tools (tool_use) but called none"));
    const outcome = await runToolCalls(config.task, calls, tools, ports.ledger, consecutiveToolErrors, occurrences, limit);
    events.push(...outcome.events);
    if (outcome.kind === "irreversible") {
      return end(blocked(`irreversible tool '${outcome.pending.tool}' needs a human`), { pending: outcome.pending });
    }
    consecutiveToolErrors = outcome.consecutiveToolErrors;
    toolErrors += outcome.toolErrors;
    if (outcome.kind === "finished") {
      const final = stopFromModel(response.stopReason, true);
      const stop = final.next === "stop" ? final.stop : failed("unclassified", "finish called but the turn did not end");
      return end(stop, outcome.summary === undefined ? {} : { summary: outcome.summary });
    }
    messages.push({ role: "user", content: outcome.results });
  }
}

/** A call that timed out past the wall clock is out of budget; any other failure keeps its class. */
function stopForFailedCall(reply: Extract<ModelReply, { ok: false }>, elapsedMs: number, budget: Budget): Stop {
  if (reply.kind === "timeout") {
    return elapsedMs >= budget.wall_clock * 1000
      ? outOfBudget("wall_clock", `model call outlived the wall clock: ${reply.reason}`)
      : failed("retry", `model call timed out: ${reply.reason}`);
  }
  return failed(reply.kind, `model call failed: ${reply.reason}`);
}

function toolsByName(tools: readonly AgentTool[]): ReadonlyMap<string, AgentTool> {
  const byName = new Map<string, AgentTool>();
  for (const tool of tools) {
    if (tool.name === FINISH_TOOL_NAME) throw new AgentLoopConfigError(`'${FINISH_TOOL_NAME}' is the loop's own tool; rename yours`);
    if (byName.has(tool.name)) throw new AgentLoopConfigError(`two tools are named '${tool.name}'`);
    byName.set(tool.name, tool);
  }
  return byName;
}
