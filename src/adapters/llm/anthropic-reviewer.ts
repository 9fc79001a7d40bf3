import type { Reviewer, ReviewerReply } from "../../core/review/reviewer-port.js";
import { postJson } from "./post-json.js";

/** Settings for Anthropic's Messages API. */
export interface AnthropicReviewerOptions {
  readonly apiKey: string;
  readonly model: string;
  /** Default https://api.anthropic.com. */
  readonly baseUrl?: string;
  readonly maxTokens?: number;
  readonly timeoutMs?: number;
  readonly fetch: typeof globalThis.fetch;
}

/** A reviewer over Anthropic's Messages API: POST {baseUrl}/v1/messages with x-api-key. */
export function createAnthropicReviewer(options: AnthropicReviewerOptions): Reviewer {
  const url = `${(options.baseUrl ?? "https://api.anthropic.com").replace(/\/+$/, "")}/v1/messages`;
  return {
    name: `anthropic ${options.model}`,
    async review(prompt): Promise<ReviewerReply> {
      const answer = await postJson(options.fetch, url, {
        headers: { "x-api-key": options.apiKey, "anthropic-version": "2023-06-01" },
        body: { model: options.model, max_tokens: options.maxTokens ?? 4096, temperature: 0, system: prompt.system, messages: [{ role: "user", content: prompt.user }] },
        timeoutMs: options.timeoutMs ?? 120_000,
      });
      if (!answer.ok) return answer;
      const data = answer.data as { stop_reason?: unknown; content?: unknown };
      if (data.stop_reason === "max_tokens") return { ok: false, reason: "the answer was cut off at max_tokens" };
      if (data.stop_reason === "refusal") return { ok: false, reason: "the model refused to review" };
      if (!Array.isArray(data.content)) return { ok: false, reason: "the response has no content" };
      const text = data.content
        .filter((b): b is { type: "text"; text: string } => typeof b === "object" && b !== null && (b as { type?: unknown }).type === "text" && typeof (b as { text?: unknown }).text === "string")
        .map((b) => b.text)
        .join("");
      return { ok: true, text };
    },
  };
}
