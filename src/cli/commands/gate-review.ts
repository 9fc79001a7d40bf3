import { acceptanceEnv } from "../../adapters/local/acceptance-env.js";
import { createReviewer } from "../../adapters/llm/create-reviewer.js";
import type { Brief } from "../../core/brief/brief.js";
import type { GateDiff } from "../../core/gate/changed-file.js";
import type { CheckResult } from "../../core/gate/check-result.js";
import { runReview } from "../../core/review/run-review.js";

/** The reviewer's check when BOSUN_REVIEWER configures one, else undefined; a bad setting is could-not-check. */
export async function reviewFromEnv(env: NodeJS.ProcessEnv, brief: Brief, diff: GateDiff, checks: readonly CheckResult[], fetchFn: typeof globalThis.fetch): Promise<CheckResult | undefined> {
  const provider = env["BOSUN_REVIEWER"] ?? "";
  const choice = createReviewer(
    {
      provider,
      mode: env["BOSUN_REVIEW_MODE"] ?? "",
      model: env["BOSUN_REVIEWER_MODEL"] ?? "",
      baseUrl: env["BOSUN_REVIEWER_URL"] ?? "",
      apiKey: env[provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"] ?? "",
      command: env["BOSUN_REVIEWER_COMMAND"] ?? "",
    },
    // The command reviewer gets no credentials: it reads the prompt, nothing more.
    { fetch: fetchFn, env: acceptanceEnv(env) },
  );
  if (choice.kind === "none") return undefined;
  if (choice.kind === "invalid") return { check: "review", result: "could-not-check", evidence: `could not review: ${choice.message}`, annotations: [] };
  return runReview(choice.reviewer, choice.mode, brief, diff, checks);
}
