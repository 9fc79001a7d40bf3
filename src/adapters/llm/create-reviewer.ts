import type { Reviewer, ReviewMode } from "../../core/review/reviewer-port.js";
import { createAnthropicReviewer } from "./anthropic-reviewer.js";
import { createCommandReviewer } from "./command-reviewer.js";
import { createOpenAiReviewer } from "./openai-reviewer.js";

/** Reviewer settings as the Action inputs and the CLI's environment give them (strings, '' when unset). */
export interface ReviewerSettings {
  readonly provider: string;
  readonly mode: string;
  readonly model: string;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly command: string;
}

/** A configured reviewer; `none` when no provider is set; `invalid` with what to fix. */
export type ReviewerChoice =
  | { readonly kind: "none" }
  | { readonly kind: "reviewer"; readonly reviewer: Reviewer; readonly mode: ReviewMode }
  | { readonly kind: "invalid"; readonly message: string };

const DEFAULT_MODEL: Readonly<Record<string, string>> = { anthropic: "claude-sonnet-4-5", openai: "gpt-4.1" };

/** Builds the reviewer the settings name; `fetch` and the command's environment are injected. */
export function createReviewer(settings: ReviewerSettings, deps: { fetch: typeof globalThis.fetch; env: Readonly<Record<string, string | undefined>>; cwd?: string }): ReviewerChoice {
  const provider = settings.provider.trim();
  if (provider === "" || provider === "none") return { kind: "none" };
  const mode = settings.mode.trim() === "" ? "advisory" : settings.mode.trim();
  if (mode !== "advisory" && mode !== "blocking") return { kind: "invalid", message: `review mode '${mode}' must be advisory or blocking` };
  const model = settings.model.trim() || (DEFAULT_MODEL[provider] ?? "");
  const baseUrl = settings.baseUrl.trim();
  switch (provider) {
    case "anthropic":
      if (settings.apiKey === "") return { kind: "invalid", message: "the anthropic reviewer needs an API key" };
      return { kind: "reviewer", mode, reviewer: createAnthropicReviewer({ apiKey: settings.apiKey, model, fetch: deps.fetch, ...(baseUrl === "" ? {} : { baseUrl }) }) };
    case "openai":
      if (settings.apiKey === "" && baseUrl === "") return { kind: "invalid", message: "the openai reviewer needs an API key (or a base URL of a local server)" };
      return { kind: "reviewer", mode, reviewer: createOpenAiReviewer({ apiKey: settings.apiKey, model, fetch: deps.fetch, ...(baseUrl === "" ? {} : { baseUrl }) }) };
    case "command":
      if (settings.command.trim() === "") return { kind: "invalid", message: "the command reviewer needs a command" };
      return { kind: "reviewer", mode, reviewer: createCommandReviewer({ command: settings.command, env: deps.env, ...(deps.cwd === undefined ? {} : { cwd: deps.cwd }) }) };
    default:
      return { kind: "invalid", message: `reviewer '${provider}' must be anthropic, openai or command` };
  }
}
