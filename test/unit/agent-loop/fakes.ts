// Fakes shared by the agent-loop tests: a scripted model, a settable clock, tools that record calls.
import type { AgentTool, ToolEffect, ToolResult } from "../../../src/core/agent-loop/agent-tool.js";
import type { ContentBlock, Model, ModelReply, ModelRequest, ModelResponse } from "../../../src/core/agent-loop/model-port.js";
import type { Budget } from "../../../src/core/brief/brief.js";

/** A budget no test reaches unless it lowers one limit. */
export const ROOMY: Budget = { steps: 100, tokens: 1_000_000, wall_clock: 3600, tool_errors: 100 };

export class FakeClock {
  constructor(public ms = 1_000_000) {}
  now(): number {
    return this.ms;
  }
}

type Scripted = ModelReply | ((request: ModelRequest) => ModelReply);

/** Answers each call with the next scripted reply and keeps every request it saw. */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  private next = 0;
  constructor(
    private readonly script: readonly Scripted[],
    private readonly onCall: () => void = () => {},
  ) {}
  complete(request: ModelRequest): Promise<ModelReply> {
    this.requests.push(request);
    this.onCall();
    const entry = this.script[this.next] ?? this.script[this.script.length - 1];
    this.next += 1;
    if (entry === undefined) throw new Error("empty script");
    return Promise.resolve(typeof entry === "function" ? entry(request) : entry);
  }
}

let ids = 0;
/** A tool call block with a fresh id. */
export const call = (name: string, input: unknown = {}): ContentBlock => ({ type: "tool_use", id: `toolu_${++ids}`, name, input });

/** A successful reply. */
export function reply(stopReason: string | null, content: readonly ContentBlock[] = [], tokens = 10): ModelReply {
  const response: ModelResponse = { stopReason, content, usage: { inputTokens: tokens, outputTokens: 0 } };
  return { ok: true, response };
}

/** A reply calling the given tools, stop_reason `tool_use`. */
export const calls = (...blocks: ContentBlock[]): ModelReply => reply("tool_use", blocks);

/** A tool that records every call and answers with `answer`. */
export function recordingTool(
  name: string,
  effect: ToolEffect,
  answer: (input: unknown) => ToolResult = () => ({ ok: true, content: "ok" }),
): AgentTool & { readonly seen: { input: unknown; key: string | undefined }[] } {
  const seen: { input: unknown; key: string | undefined }[] = [];
  return {
    name,
    description: `${name} (test tool)`,
    inputSchema: { type: "object" },
    effect,
    seen,
    run(input, context) {
      seen.push({ input, key: context.idempotencyKey });
      return Promise.resolve(answer(input));
    },
  };
}
