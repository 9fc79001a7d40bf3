import type { ActionIo } from "../action-io.js";
import { listInput } from "../list-input.js";
import { acceptanceEnv } from "../../adapters/local/acceptance-env.js";
import { createReviewer } from "../../adapters/llm/create-reviewer.js";
import type { AcceptanceOptions } from "../../adapters/local/run-acceptance.js";
import type { AcceptanceRun } from "../../core/gate/check-acceptance.js";
import { checkAcceptance } from "../../core/gate/check-acceptance.js";
import type { CheckResult } from "../../core/gate/check-result.js";
import { checkResult } from "../../core/gate/check-result.js";
import { findPullHints } from "../../core/gate/find-brief-link.js";
import { DEFAULT_SENSITIVE, DEFAULT_SIZE_IGNORE } from "../../core/gate/gate-config.js";
import type { GateReport } from "../../core/gate/gate-report.js";
import { cannotCheckReport, gateReport } from "../../core/gate/gate-report.js";
import { renderGateMarkdown } from "../../core/gate/render-gate-report.js";
import { compileGateConfig, runMechanicalChecks } from "../../core/gate/run-mechanical-checks.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";
import { runReview } from "../../core/review/run-review.js";
import { DEFAULT_CLAIM_PREFIX, findDispatchedItem } from "./find-dispatched-item.js";
import type { CheckRunWriter, GateReader } from "./gate-github.js";
import { gateTarget } from "./gate-target.js";
import { publishGateReport } from "./publish-gate-report.js";
import { resolveBrief } from "./resolve-brief.js";
import { workingTreeHead } from "./working-tree-head.js";

/** An acceptance result produced elsewhere (a job with no write access), handed over as data. */
export interface HandedAcceptance {
  /** The commit the command ran on (`git rev-parse HEAD` in that job). */
  readonly sha: string;
  readonly run: AcceptanceRun;
}

/** What the gate mode needs from outside: GitHub, a way to run the acceptance command, and fetch. */
export interface GateActionDeps {
  readonly github: GateReader & CheckRunWriter;
  readonly runAcceptance: (options: AcceptanceOptions) => Promise<AcceptanceRun>;
  readonly fetch: typeof globalThis.fetch;
  /** Values masked in everything the mode writes (the token, the reviewer's key). */
  readonly secrets: readonly string[];
  /** The commit checked out in a directory; default `git rev-parse HEAD`. */
  readonly treeHead?: (cwd: string) => Promise<string | undefined>;
  /** When set, the acceptance result comes from here instead of running the command in this job. */
  readonly handedAcceptance?: () => Promise<HandedAcceptance>;
}

/**
 * The `gate` mode, one commit throughout: the event's head SHA is judged, the PR must still be at
 * it when its facts are read and when the verdict is posted, the acceptance command runs only in a
 * working tree at that commit, and the check run goes on that SHA only. The brief is the approved
 * one of the item Bosun's record names. Then one check run, a job summary, outputs `verdict` and
 * `report`, and a failed step unless pass.
 */
export async function runGateAction(io: ActionIo, deps: GateActionDeps): Promise<GateReport> {
  const target = gateTarget(io.event);
  if (!target.ok) {
    const report = cannotCheckReport(target.reason);
    await finish(io, deps, report, undefined);
    return report;
  }
  const sha = target.headSha;
  let report: GateReport;
  try {
    report = await judge(io, deps, target.number, sha, target.dispatchItem);
  } catch (err) {
    // Unknown is not a pass, and a missing check must not be mistaken for one still running.
    report = cannotCheckReport(`could not finish reading GitHub: ${err instanceof Error ? err.message : String(err)}`);
  }
  await finish(io, deps, report, sha);
  return report;
}

/** Everything between the event and the posted verdict, all about the one commit `sha`. */
async function judge(io: ActionIo, deps: GateActionDeps, number: number, sha: string, dispatchItem: string | undefined): Promise<GateReport> {
  const pull = await deps.github.pull(number);
  if (pull.headSha !== sha) return cannotCheckReport(movedHead(sha, pull.headSha, "before the gate read it"));
  const prefix = io.input("claim-ref-prefix").trim() || DEFAULT_CLAIM_PREFIX;
  const botLogin = io.input("bot-login").trim() || "bosun[bot]";
  const item = await findDispatchedItem(deps.github, { headRef: pull.headRef, fromFork: pull.fromFork, hints: findPullHints(pull.body, pull.labels), ...(dispatchItem === undefined ? {} : { dispatchItem }) }, { prefix, botLogin });
  const resolved = await resolveBrief(deps.github, pull, botLogin, item);
  if (!resolved.ok) return cannotCheckReport(resolved.reason);
  const { brief } = resolved;
  for (const note of resolved.notes) io.log.warning(note);
  const files = await deps.github.files(number);
  // Files and totals describe whatever the PR's head is when they are listed: they are the event's
  // commit only if the head is still there after the listing.
  const listed = await deps.github.pull(number);
  if (listed.headSha !== sha) return cannotCheckReport(movedHead(sha, listed.headSha, "while the gate listed its files"), { id: brief.id, hash: resolved.hash, source: resolved.source });
  const diff = { files, totals: { additions: listed.additions, deletions: listed.deletions, changed_files: listed.changedFiles } };
  const sensitive = listInput(io, "sensitive-paths");
  const config = compileGateConfig({ sensitive: sensitive.length > 0 ? sensitive : DEFAULT_SENSITIVE, sizeIgnore: [...DEFAULT_SIZE_IGNORE, ...listInput(io, "size-ignore")] });
  const checks = runMechanicalChecks(brief, diff, config);
  checks.unshift(await acceptanceCheck(io, deps, brief.acceptance, sha));
  const choice = createReviewer(
    { provider: io.input("reviewer"), mode: io.input("review-mode"), model: io.input("reviewer-model"), baseUrl: io.input("reviewer-url"), apiKey: io.input("reviewer-api-key"), command: io.input("reviewer-command") },
    { fetch: deps.fetch, env: acceptanceEnv(io.env) },
  );
  if (choice.kind === "invalid") checks.push({ check: "review", result: "could-not-check", evidence: `could not review: ${choice.message}`, annotations: [] });
  if (choice.kind === "reviewer") checks.push(await runReview(choice.reviewer, choice.mode, brief, diff, checks));
  // Last look before posting: a head that moved meanwhile is judged by its own run, not this one.
  const now = await deps.github.pull(number);
  const report = gateReport({ id: brief.id, hash: resolved.hash, source: resolved.source }, checks);
  if (now.headSha === sha) return report;
  // The checks stay in the report for the record, but a moved head is could-not-check, even over a failure.
  return { ...report, verdict: "could-not-check", checks: [checkResult("diff", "could-not-check", movedHead(sha, now.headSha, "while the gate ran")), ...checks] };
}

function movedHead(judged: string, now: string, when: string): string {
  return `the head moved from ${judged.slice(0, 12)} (this run's event) to ${now.slice(0, 12)} ${when}: this run judges only ${judged.slice(0, 12)} and posts nothing for ${now.slice(0, 12)}, whose own run will judge it`;
}

/** The acceptance check, run (or received) on the judged commit only. */
async function acceptanceCheck(io: ActionIo, deps: GateActionDeps, acceptance: { command: string; timeout: number }, sha: string): Promise<CheckResult> {
  const notAt = (where: string, head: string | undefined) =>
    checkResult("acceptance", "could-not-check", `\`${acceptance.command}\` was not judged: ${where} is at ${head === undefined ? "no git commit" : head.slice(0, 12)}, not the judged commit ${sha.slice(0, 12)}`);
  if (io.input("run-acceptance").trim() === "false") return checkAcceptance({ kind: "not-run", command: acceptance.command, reason: "run-acceptance is false" });
  if (deps.handedAcceptance !== undefined) {
    const handed = await deps.handedAcceptance();
    // A result that was refused or never ran says why itself; it is could-not-check either way.
    if (handed.run.kind === "not-run") return checkAcceptance(handed.run);
    if (handed.sha.toLowerCase() !== sha) return notAt("the handed-over acceptance result", handed.sha);
    // The brief (trusted) chooses the command; a result of any other command says nothing about it.
    if (handed.run.command !== acceptance.command) return checkResult("acceptance", "could-not-check", `the handed-over acceptance result is for \`${handed.run.command}\`, not the brief's \`${acceptance.command}\``);
    return checkAcceptance(handed.run);
  }
  const cwd = io.input("working-directory").trim() || (io.env["GITHUB_WORKSPACE"] ?? ".");
  const treeHead = deps.treeHead ?? workingTreeHead;
  const before = await treeHead(cwd);
  if (before !== sha) return notAt(`the working tree ${cwd}`, before);
  const run = await deps.runAcceptance({ command: acceptance.command, cwd, timeoutSeconds: acceptance.timeout, env: acceptanceEnv(io.env), secrets: deps.secrets });
  // The command is the PR's code: if it moved HEAD, its result is not evidence about the judged commit.
  const after = await treeHead(cwd);
  return after === sha ? checkAcceptance(run) : notAt(`after the command, the working tree ${cwd}`, after);
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
