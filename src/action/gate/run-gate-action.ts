import type { ActionIo } from "../action-io.js";
import { listInput } from "../list-input.js";
import { acceptanceEnv } from "../../adapters/local/acceptance-env.js";
import { createReviewer } from "../../adapters/llm/create-reviewer.js";
import type { AcceptanceOptions } from "../../adapters/local/run-acceptance.js";
import type { AcceptanceRun } from "../../core/gate/check-acceptance.js";
import { checkAcceptance } from "../../core/gate/check-acceptance.js";
import { DEFAULT_SENSITIVE, DEFAULT_SIZE_IGNORE } from "../../core/gate/gate-config.js";
import type { GateReport } from "../../core/gate/gate-report.js";
import { cannotCheckReport, gateReport } from "../../core/gate/gate-report.js";
import { renderGateMarkdown } from "../../core/gate/render-gate-report.js";
import { compileGateConfig, runMechanicalChecks } from "../../core/gate/run-mechanical-checks.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";
import { runReview } from "../../core/review/run-review.js";
import type { CheckRunWriter, GateReader } from "./gate-github.js";
import { publishGateReport } from "./publish-gate-report.js";
import { resolveBrief } from "./resolve-brief.js";

/** What the gate mode needs from outside: GitHub, a way to run the acceptance command, and fetch. */
export interface GateActionDeps {
  readonly github: GateReader & CheckRunWriter;
  readonly runAcceptance: (options: AcceptanceOptions) => Promise<AcceptanceRun>;
  readonly fetch: typeof globalThis.fetch;
  /** Values masked in everything the mode writes (the token, the reviewer's key). */
  readonly secrets: readonly string[];
}

/**
 * The `gate` mode: brief from a trusted place, mechanical checks over the PR's files with totals
 * from the PR object, the acceptance command in the checked-out head, the optional reviewer; then
 * one check run, a job summary, outputs `verdict` and `report`, and a failed step unless pass.
 */
export async function runGateAction(io: ActionIo, deps: GateActionDeps): Promise<GateReport> {
  const number = (io.event.payload["pull_request"] as { number?: unknown } | undefined)?.number;
  if (typeof number !== "number") {
    const report = cannotCheckReport(`the gate runs on pull_request events; this is '${io.event.name}' with no pull request`);
    await finish(io, deps, report, undefined);
    return report;
  }
  const pull = await deps.github.pull(number);
  const resolved = await resolveBrief(deps.github, pull, io.input("bot-login").trim() || "bosun[bot]");
  if (!resolved.ok) {
    const report = cannotCheckReport(resolved.reason);
    await finish(io, deps, report, pull.headSha);
    return report;
  }
  const { brief } = resolved;
  for (const note of resolved.notes) io.log.warning(note);
  const files = await deps.github.files(number);
  const diff = { files, totals: { additions: pull.additions, deletions: pull.deletions, changed_files: pull.changedFiles } };
  const sensitive = listInput(io, "sensitive-paths");
  const config = compileGateConfig({ sensitive: sensitive.length > 0 ? sensitive : DEFAULT_SENSITIVE, sizeIgnore: [...DEFAULT_SIZE_IGNORE, ...listInput(io, "size-ignore")] });
  const checks = runMechanicalChecks(brief, diff, config);
  const acceptance: AcceptanceRun =
    io.input("run-acceptance").trim() === "false"
      ? { kind: "not-run", command: brief.acceptance.command, reason: "run-acceptance is false" }
      : await deps.runAcceptance({ command: brief.acceptance.command, cwd: io.input("working-directory").trim() || (io.env["GITHUB_WORKSPACE"] ?? "."), timeoutSeconds: brief.acceptance.timeout, env: acceptanceEnv(io.env), secrets: deps.secrets });
  checks.unshift(checkAcceptance(acceptance));
  const choice = createReviewer(
    { provider: io.input("reviewer"), mode: io.input("review-mode"), model: io.input("reviewer-model"), baseUrl: io.input("reviewer-url"), apiKey: io.input("reviewer-api-key"), command: io.input("reviewer-command") },
    { fetch: deps.fetch, env: acceptanceEnv(io.env) },
  );
  if (choice.kind === "invalid") checks.push({ check: "review", result: "could-not-check", evidence: `could not review: ${choice.message}`, annotations: [] });
  if (choice.kind === "reviewer") checks.push(await runReview(choice.reviewer, choice.mode, brief, diff, checks));
  const report = gateReport({ id: brief.id, hash: resolved.hash, source: resolved.source }, checks);
  await finish(io, deps, report, pull.headSha);
  return report;
}

async function finish(io: ActionIo, deps: GateActionDeps, report: GateReport, headSha: string | undefined): Promise<void> {
  const safe = JSON.parse(redactSecrets(JSON.stringify(report), deps.secrets)) as GateReport;
  const runUrl = `${io.event.serverUrl}/${io.event.repo.owner}/${io.event.repo.repo}/actions/runs/${io.event.runId}`;
  if (headSha !== undefined) await publishGateReport(deps.github, headSha, safe, runUrl);
  await io.summary(renderGateMarkdown(safe));
  io.setOutput("verdict", safe.verdict);
  io.setOutput("report", JSON.stringify(safe));
  if (safe.verdict !== "pass") io.setFailed(`bosun gate: ${safe.verdict}${safe.needs_human ? " (a human must approve: sensitive paths)" : ""}`);
}
