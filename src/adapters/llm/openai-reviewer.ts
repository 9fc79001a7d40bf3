import type { Reviewer, ReviewerReply } from "../../core/review/reviewer-port.js";
import { postJson } from "./post-json.js";

/** Settings for an OpenAI-compatible chat completions API (OpenAI, or a local model's server). */
export interface OpenAiReviewerOptions {
  /** May be empty for a local server that takes none. */
  readonly apiKey: string;
  readonly model: string;
  /** Default https://api.openai.com/v1; a local server is e.g. http://127.0.0.1:11434/v1. */
  readonly baseUrl?: string;
  readonly timeoutMs?: number;
  readonly fetch: typeof globalThis.fetch;
}

/** A reviewer over chat completions: POST {baseUrl}/chat/completions with a Bearer key. */
export function createOpenAiReviewer(options: OpenAiReviewerOptions): Reviewer {
  const url = `${(options.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "")}/chat/completions`;
  return {
    name: `openai ${options.model}`,
    async review(prompt): Promise<ReviewerReply> {
      const answer = await postJson(options.fetch, url, {
        headers: options.apiKey === "" ? {} : { authorization: `Bearer ${options.apiKey}` },
        body: { model: options.model, temperature: 0, messages: [{ role: "system", content: prompt.system }, { role: "user", content: prompt.user }] },
        timeoutMs: options.timeoutMs ?? 120_000,
      });
      if (!answer.ok) return answer;
      const choice = (answer.data as { choices?: { finish_reason?: unknown; message?: { content?: unknown; refusal?: unknown } }[] }).choices?.[0];
      if (choice === undefined) return { ok: false, reason: "the response has no choices" };
      if (choice.finish_reason === "length") return { ok: false, reason: "the answer was cut off at the length limit" };
      if (typeof choice.message?.refusal === "string" && choice.message.refusal !== "") return { ok: false, reason: "the model refused to review" };
      if (typeof choice.message?.content !== "string") return { ok: false, reason: "the response has no message content" };
      return { ok: true, text: choice.message.content };
    },
  };
}
