import { z } from "zod";
import type { ContentBlock, Model, ModelReply, ModelRequest } from "../../core/agent-loop/model-port.js";

/** How to reach the Messages API. `fetch` is injected so tests (and proxies) choose the transport. */
export interface AnthropicModelOptions {
  readonly apiKey: string;
  readonly model: string;
  readonly fetch: typeof globalThis.fetch;
  /** Default `https://api.anthropic.com`; no trailing `/v1`. */
  readonly baseUrl?: string;
  /** Default `2023-06-01`. */
  readonly anthropicVersion?: string;
}

const DEFAULT_BASE_URL = "https://api.anthropic.com";
const DEFAULT_VERSION = "2023-06-01";

const blockSchema = z.looseObject({ type: z.string() });
const responseSchema = z.looseObject({
  content: z.array(blockSchema),
  stop_reason: z.string().nullable(),
  usage: z.looseObject({
    input_tokens: z.number().nonnegative(),
    output_tokens: z.number().nonnegative(),
    cache_creation_input_tokens: z.number().nonnegative().nullish(),
    cache_read_input_tokens: z.number().nonnegative().nullish(),
  }),
});
const errorSchema = z.looseObject({ error: z.looseObject({ type: z.string(), message: z.string() }) });

// Statuses the same request may pass later (rate limit, overload, server error) and ones it never will.
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504, 529]);
const REFUSE_STATUSES = new Set([400, 401, 403, 404, 413, 422]);

/**
 * The Anthropic Messages API (`POST {baseUrl}/v1/messages`, non-streaming) as the loop's model port.
 * Failures come back as values; the API key is sent only in `x-api-key` and scrubbed from every
 * reason this adapter returns, so it cannot reach a log or a journal through one.
 */
export function createAnthropicModel(options: AnthropicModelOptions): Model {
  const url = `${(options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "")}/v1/messages`;
  const scrub = (text: string): string => (options.apiKey === "" ? text : text.split(options.apiKey).join("[redacted]"));
  const fail = (kind: Extract<ModelReply, { ok: false }>["kind"], reason: string): ModelReply => ({ ok: false, kind, reason: scrub(reason) });

  const transportFailure = (err: unknown): ModelReply =>
    err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")
      ? fail("timeout", "no answer within the wall-clock time left")
      : fail("retry", `network error: ${err instanceof Error ? err.message : String(err)}`);

  return {
    async complete(request: ModelRequest): Promise<ModelReply> {
      if (request.timeoutMs <= 0) return fail("timeout", "no wall-clock time left for a model call");
      let response: Response;
      try {
        response = await options.fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-api-key": options.apiKey,
            "anthropic-version": options.anthropicVersion ?? DEFAULT_VERSION,
          },
          body: JSON.stringify(toWireRequest(options.model, request)),
          ...(Number.isFinite(request.timeoutMs) ? { signal: AbortSignal.timeout(Math.ceil(request.timeoutMs)) } : {}),
        });
      } catch (err) {
        return transportFailure(err);
      }
      let text: string;
      try {
        text = await response.text();
      } catch (err) {
        // The body can outlive the deadline too: the same signal aborts it mid-stream.
        return transportFailure(err);
      }
      if (!response.ok) {
        const status = response.status;
        const kind = RETRY_STATUSES.has(status) ? "retry" : REFUSE_STATUSES.has(status) ? "refuse" : "unclassified";
        const error = errorSchema.safeParse(parseJson(text));
        return fail(kind, `HTTP ${status}${error.success ? ` ${error.data.error.type}: ${error.data.error.message}` : ""}`);
      }
      const parsed = responseSchema.safeParse(parseJson(text));
      if (!parsed.success) return fail("unclassified", "the API answered 2xx with a body that is not a message");
      const { usage } = parsed.data;
      return {
        ok: true,
        response: {
          stopReason: parsed.data.stop_reason,
          content: parsed.data.content.map(fromWireBlock),
          usage: {
            inputTokens: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
            outputTokens: usage.output_tokens,
          },
        },
      };
    },
  };
}

function toWireRequest(model: string, request: ModelRequest): Record<string, unknown> {
  return {
    model,
    max_tokens: request.maxTokens,
    ...(request.system === undefined ? {} : { system: request.system }),
    messages: request.messages.map((m) => ({ role: m.role, content: m.content.map(toWireBlock) })),
    tools: request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
  };
}

function toWireBlock(block: ContentBlock): unknown {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: block.input };
    case "tool_result":
      return { type: "tool_result", tool_use_id: block.toolUseId, content: block.content, is_error: block.isError };
    case "opaque":
      return block.block;
  }
}

/** Text and tool calls are read; every other block (thinking, server tools) is kept whole to send back. */
function fromWireBlock(block: z.infer<typeof blockSchema>): ContentBlock {
  if (block.type === "text" && typeof block["text"] === "string") return { type: "text", text: block["text"] };
  if (block.type === "tool_use" && typeof block["id"] === "string" && typeof block["name"] === "string") {
    return { type: "tool_use", id: block["id"], name: block["name"], input: block["input"] ?? {} };
  }
  return { type: "opaque", block };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
