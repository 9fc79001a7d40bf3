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
import { manifestsToLookUp } from "../../core/gate/lock-files.js";
import type { GateReport } from "../../core/gate/gate-report.js";
import { cannotCheckReport, gateReport } from "../../core/gate/gate-report.js";
import { renderGateMarkdown } from "../../core/gate/render-gate-report.js";
import { compileGateConfig, runMechanicalChecks } from "../../core/gate/run-mechanical-checks.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";
import { runReview } from "../../core/review/run-review.js";
import { DEFAULT_CLAIM_PREFIX, findDispatchedItem } from "./find-dispatched-item.js";
import type { CheckRunWriter, GateReader } from "../../ports/gate-github.js";
import type { GateTarget } from "./gate-target.js";
import { gateTarget } from "./gate-target.js";
import { normalizeLogin } from "../../core/separation/identity.js";
import type { PullFacts } from "../../ports/gate-github.js";
import { unjudgedBase } from "./judged-base.js";
import { publishGateReport } from "./publish-gate-report.js";
import { resolveBrief } from "./resolve-brief.js";
import { untiedAcceptanceRun } from "./untied-acceptance-run.js";
import { untrustedRerun } from "./untrusted-rerun.js";
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
    const rerun = await untrustedRerun(io, deps.github, target.number);
    if (rerun !== undefined) {
      // Nothing posted: the verdict on the commit stays the first attempt's.
      report = cannotCheckReport(rerun);
      await finish(io, deps, report, undefined);
      return report;
    }
    report = await judge(io, deps, target);
  } catch (err) {
    // Unknown is not a pass, and a missing check must not be mistaken for one still running.
    report = cannotCheckReport(`could not finish reading GitHub: ${err instanceof Error ? err.message : String(err)}`);
  }
  await finish(io, deps, report, sha);
  return report;
}

/** Everything between the event and the posted verdict, all about the one commit `sha`. */
async function judge(io: ActionIo, deps: GateActionDeps, target: Extract<GateTarget, { ok: true }>): Promise<GateReport> {
  const { number, headSha: sha, dispatchItem } = target;
  const pull = await deps.github.pull(number);
  if (pull.headSha !== sha) return cannotCheckReport(movedHead(sha, pull.headSha, "before the gate read it"));
  const badBase = unjudgedBase(pull.baseRef, pull.defaultBranch, listInput(io, "protected-branches"));
  if (badBase !== undefined) return cannotCheckReport(badBase);
  const prefix = io.input("claim-ref-prefix").trim() || DEFAULT_CLAIM_PREFIX;
  const botLogin = io.input("bot-login").trim() || "bosun[bot]";
  const acceptanceWorkflow = io.input("acceptance-workflow").trim() || DEFAULT_ACCEPTANCE_WORKFLOW;
  const untrusted = await untrustedTrigger(deps, target, pull, acceptanceWorkflow, (ref) => unjudgedBase(ref, pull.defaultBranch, listInput(io, "protected-branches")));
  if (untrusted !== undefined) return cannotCheckReport(untrusted);
  const item = await findDispatchedItem(deps.github, { headRef: pull.headRef, fromFork: pull.fromFork, hints: findPullHints(pull.body, pull.labels), ...(dispatchItem === undefined ? {} : { dispatchItem }) }, { prefix, botLogin, trustBriefBranches: io.input("trust-brief-branches").trim() === "true" });
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
  // A lock file is machine-written only beside its manifest: which manifests the base commit has.
  const manifestsAtBase = new Set<string>();
  for (const path of manifestsToLookUp(files, brief.constraints.paths)) if ((await deps.github.fileAt(path, pull.baseSha)) !== undefined) manifestsAtBase.add(path);
  const checks = runMechanicalChecks(brief, diff, config, manifestsAtBase);
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

/** The workflow whose result the gate reads, unless input `acceptance-workflow` names another. */
export const DEFAULT_ACCEPTANCE_WORKFLOW = ".github/workflows/bosun-acceptance.yml";

/**
 * Why the run that started this gate cannot be trusted to name what it judges, or undefined. A
 * workflow_dispatch is anyone-with-write's to start, with any inputs: only an admin or maintainer
 * who did not write the PR may, and the acceptance run they name must be the acceptance workflow's
 * own pull_request run on the judged commit (else its artifact may be anything). A workflow_run must
 * come from that workflow's pull_request run. Either run must be tied to the judged PR (its head
 * branch, and every PR ever opened from that branch into a judged base: untiedAcceptanceRun).
 */
async function untrustedTrigger(deps: GateActionDeps, target: Extract<GateTarget, { ok: true }>, pull: PullFacts, workflow: string, unjudged: (baseRef: string) => string | undefined): Promise<string | undefined> {
  const sha = target.headSha;
  const runProblem = (run: { path: string; event: string; headSha?: string }, what: string): string | undefined => {
    const path = run.path.replace(/@.*$/, "");
    if (path !== workflow) return `${what} is of workflow '${path || "(none)"}', not ${workflow}: only that workflow's result is the acceptance result`;
    if (run.event !== "pull_request") return `${what} ran on '${run.event}', not pull_request: only the acceptance workflow's pull_request run is judged`;
    if (run.headSha !== undefined && run.headSha.toLowerCase() !== sha) return `${what} ran on ${run.headSha.slice(0, 12)}, not the judged commit ${sha.slice(0, 12)}`;
    return undefined;
  };
  // Any workflow a PR adds can be named "bosun acceptance" and trigger the gate: its path says which it is.
  if (target.acceptanceRun !== undefined) {
    const what = "the workflow run that triggered the gate";
    return runProblem(target.acceptanceRun, what) ?? (await untiedAcceptanceRun(deps.github, target.acceptanceRun, pull, unjudged, what));
  }
  const dispatch = target.dispatch;
  if (dispatch === undefined) return undefined;
  if (dispatch.sender === "") return "the workflow_dispatch event names no sender, so nobody can be checked to have the right to dispatch the gate";
  const permission = await deps.github.permission(dispatch.sender);
  if (permission !== "admin" && permission !== "maintain") return `the gate was dispatched by ${dispatch.sender}, who has ${permission} permission: only an admin or maintainer may dispatch it by hand (anyone with write, an agent included, can start a workflow_dispatch with any inputs)`;
  const sender = normalizeLogin(dispatch.sender);
  const commits = await deps.github.commits(pull.number);
  const wrote = [pull.author, ...commits.flatMap((c) => [c.author.login, c.committer.login])].some((l) => l !== undefined && l !== null && normalizeLogin(l) === sender);
  if (wrote) return `the gate was dispatched by ${dispatch.sender}, who opened or committed to this pull request: its author may not choose how it is judged`;
  if (deps.handedAcceptance === undefined) return undefined;
  if (dispatch.acceptanceRun === undefined) return "the workflow_dispatch names no acceptance-run (the id of the acceptance workflow's run on the judged commit)";
  const run = await deps.github.workflowRun(dispatch.acceptanceRun);
  if (run === undefined) return `acceptance-run ${dispatch.acceptanceRun} is no workflow run of this repository`;
  const what = `acceptance-run ${dispatch.acceptanceRun}`;
  return runProblem(run, what) ?? (await untiedAcceptanceRun(deps.github, run, pull, unjudged, what));
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
