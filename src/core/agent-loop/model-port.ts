/**
 * The model port, declared by the loop. Its vocabulary is the Anthropic Messages API's (content
 * blocks, `stop_reason` values) because that is the richest one; adapters for other providers map
 * into it.
 */

/** One block of a message. `opaque` blocks (thinking, server tools) are sent back verbatim. */
export type ContentBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "tool_use"; readonly id: string; readonly name: string; readonly input: unknown }
  | { readonly type: "tool_result"; readonly toolUseId: string; readonly content: string; readonly isError: boolean }
  | { readonly type: "opaque"; readonly block: Readonly<Record<string, unknown>> };

export interface Message {
  readonly role: "user" | "assistant";
  readonly content: readonly ContentBlock[];
}

/** A tool as the model sees it. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

export interface ModelRequest {
  readonly system?: string;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSpec[];
  /** Output cap for this one step: the smaller of the configured cap and the tokens left. */
  readonly maxTokens: number;
  /** Wall-clock time left, so the adapter can abort a call that would outlive the budget. */
  readonly timeoutMs: number;
}

/** Tokens one call consumed, as the provider reported them (cache reads and writes included). */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface ModelResponse {
  /** The provider's stop reason; `null` when it sent none (mapped as unclassifiable). */
  readonly stopReason: string | null;
  readonly content: readonly ContentBlock[];
  readonly usage: TokenUsage;
}

/**
 * Expected ways a call fails, as values. `timeout` means the call hit `timeoutMs`; `retry`/`refuse`
 * say whether the same call could succeed later (429, 5xx, network) or never will (400, 401, 403).
 */
export type ModelReply =
  | { readonly ok: true; readonly response: ModelResponse }
  | { readonly ok: false; readonly kind: "timeout" | "retry" | "refuse" | "unclassified"; readonly reason: string };

/** A chat model that can call tools. */
export interface Model {
  complete(request: ModelRequest): Promise<ModelReply>;
}
