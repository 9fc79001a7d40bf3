import type { ActionIo } from "../action-io.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";
import type { VerifyVerdict } from "../../core/verify/converge.js";
import type { Probe } from "../../core/verify/probe-outcome.js";
import { progressLine } from "../../core/verify/progress-line.js";
import { redactUrl } from "../../core/verify/redact-url.js";
import { verdictDescription, verdictLine, verdictMarkdown } from "../../core/verify/render-verdict.js";
import type { VerifyTarget } from "../../core/verify/render-verdict.js";
import { runVerification } from "../../core/verify/run-verification.js";
import type { VerifyClock } from "../../core/verify/run-verification.js";
import type { VerifyTargetSpec } from "../../core/verify/verify-options.js";
import type { VerifyTrust } from "../../core/verify/untrusted-deployment.js";
import { untrustedDeployment } from "../../core/verify/untrusted-deployment.js";
import { DEPLOY_LANDING_CONTEXT, DEPLOY_VERIFIED_CONTEXT } from "../../ports/deploy-status-reporter.js";
import type { DeployStatusReporter, StatusState } from "../../ports/deploy-status-reporter.js";
import type { ItemLander } from "../../ports/item-lander.js";
import { landDeployedItems } from "./land-deployed-items.js";
import type { LandingReport } from "./land-deployed-items.js";
import { readVerifyRequest } from "./read-verify-request.js";
import type { VerifyRequest } from "./read-verify-request.js";

/** The ports the verify mode runs on; the mode file wires the real ones. */
export interface VerifyActionDeps {
  readonly github: DeployStatusReporter & ItemLander;
  readonly clock: VerifyClock;
  readonly probeFor: (target: VerifyTargetSpec) => Probe;
  /** Values that must never reach a comment, a status or the summary (the token, credential env). */
  readonly secrets: readonly string[];
  /** Whose deployments count and which hosts a deployment's URL may name (config `deployers`, `verify.hosts`, or inputs). */
  readonly trust: VerifyTrust;
}

const STATE: Record<VerifyVerdict["kind"], StatusState> = { verified: "success", mismatch: "failure", unreachable: "error" };

/**
 * The verify mode: probe until a verdict, then report it everywhere it is needed — outputs, job
 * summary, deployment status, commit status `bosun/deploy-verified` — and land (or hand to a
 * human) the items the deployment carried. Fails the step unless verified. A deployment nobody
 * allowed made (or a URL its creator chose, on a host nobody listed) is refused: nothing is probed,
 * posted or landed, output `verdict` is `refused` and the step fails saying why.
 */
export async function runVerifyAction(io: ActionIo, deps: VerifyActionDeps): Promise<VerifyVerdict | undefined> {
  const read = readVerifyRequest(io, deps.clock.now());
  if (read.kind === "skip") {
    io.log.info(`bosun verify: skipped: ${read.reason}`);
    io.setOutput("verdict", "skipped");
    return undefined;
  }
  if (read.kind === "invalid") {
    io.setFailed(`bosun verify: ${read.problems.join("; ")}`);
    return undefined;
  }
  const req = read.request;
  const redact = (text: string): string => redactSecrets(text, deps.secrets);
  // Posting anything on a deployment nobody allowed would let it overwrite the real verdict on the commit.
  const refused = untrustedDeployment(req.deployment, req.environmentUrl, req.urlFromEvent, deps.trust);
  if (refused !== undefined) {
    io.setOutput("verdict", "refused");
    io.setFailed(redact(`bosun verify: refused: ${refused}; nothing was probed, posted or landed`));
    return undefined;
  }
  const target: VerifyTarget = {
    target: showTarget(req.options.target),
    ...(req.environment === undefined ? {} : { environment: req.environment }),
  };
  const { config } = req.options;
  io.log.info(
    redact(`bosun verify: ${target.target} must report ${config.expected} on ${config.consecutive} consecutive probe(s), within ${config.timeoutMs} ms`),
  );
  const verdict = await runVerification({
    probe: deps.probeFor(req.options.target),
    clock: deps.clock,
    config,
    onProbe: (obs, state, next) => io.log.info(redact(progressLine(obs, state, next))),
  });
  const line = redact(verdictLine(verdict, target));
  io.log.info(line);
  io.setOutput("verdict", verdict.kind);
  io.setOutput("reported", verdict.kind === "verified" ? verdict.value : verdict.kind === "mismatch" ? verdict.reported : "");
  io.setOutput("report", redact(JSON.stringify({ target: target.target, ...verdict })));
  const evidence = redact(verdictMarkdown(verdict, target));
  await io.summary(evidence);

  // A re-run (anyone with write access can start one, on the same event, at any later time) probes
  // the target as it is now, maybe after a newer deployment went live: only its verified verdict
  // speaks for this deployment. Its first attempt already reported anything else.
  const attempt = (io.env["GITHUB_RUN_ATTEMPT"] ?? "").trim();
  if (attempt !== "" && attempt !== "1" && verdict.kind !== "verified") {
    const by = io.env["GITHUB_TRIGGERING_ACTOR"] ? ` by ${io.env["GITHUB_TRIGGERING_ACTOR"].slice(0, 60)}` : "";
    io.setFailed(redact(`bosun verify: ${line}; this is attempt ${attempt.slice(0, 10)} of the run (a re-run${by}): a re-run posts and lands only a verified deployment, so nothing was posted or landed (the first attempt's verdict stands)`));
    return verdict;
  }
  const { owner, repo } = io.event.repo;
  const logUrl = `${io.event.serverUrl}/${owner}/${repo}/actions/runs/${io.event.runId}`;
  const description = redact(verdictDescription(verdict));
  if (req.deploymentId !== undefined) {
    await deps.github.createDeploymentStatus({
      deploymentId: req.deploymentId,
      state: STATE[verdict.kind],
      description,
      logUrl,
      ...(req.environmentUrl === undefined ? {} : { environmentUrl: req.environmentUrl }),
    });
  }
  await deps.github.createCommitStatus({ sha: req.sha, state: STATE[verdict.kind], context: DEPLOY_VERIFIED_CONTEXT, description, targetUrl: logUrl });

  if (req.land) {
    const report = await landItems(deps.github, req, verdict, io.event.repo, deps.trust.deployers, (issue, pull) =>
      redact(itemComment(verdict, target, evidence, logUrl, issue, pull)),
    );
    io.setOutput("landed", report.landed.join(","));
    io.setOutput("needs-human", report.needsHuman.join(","));
    io.setOutput("unexamined", report.unexamined === undefined ? "" : String(report.unexamined.commits ?? "unknown"));
    if (report.unexamined !== undefined) {
      io.log.warning(`bosun verify: not every deployed commit was examined: ${report.unexamined.reason}`);
      // Where a human looks for the deployed commit's state: a failing status that says how much is unknown.
      await deps.github.createCommitStatus({ sha: req.sha, state: "failure", context: DEPLOY_LANDING_CONTEXT, description: landingStatusDescription(report), targetUrl: logUrl });
    }
    await io.summary(landingMarkdown(report, verdict));
  }
  if (verdict.kind !== "verified") io.setFailed(`bosun verify: ${line}`);
  return verdict;
}

async function landItems(
  lander: ItemLander,
  req: VerifyRequest,
  verdict: VerifyVerdict,
  repo: { readonly owner: string; readonly repo: string },
  deployers: readonly string[],
  comment: (issue: number, pull: number) => string,
): Promise<LandingReport> {
  const base = req.base ?? (req.environment === undefined ? undefined : await lander.previousDeployedSha(req.environment, req.deploymentId, deployers));
  const pulls = await lander.mergedPullsInRange(base, req.sha);
  return landDeployedItems(lander, verdict, pulls, repo, comment);
}

/** A command line can hold a secret typed into the workflow: show only the program's name. */
function showTarget(target: VerifyTargetSpec): string {
  if (target.kind === "url") return redactUrl(target.url);
  const program = target.command.trim().split(/\s+/)[0] ?? "";
  return `command ${program} …`;
}

function itemComment(verdict: VerifyVerdict, target: VerifyTarget, evidence: string, logUrl: string, issue: number, pull: number): string {
  const where = target.environment === undefined ? "" : ` to \`${target.environment}\``;
  const head =
    verdict.kind === "verified"
      ? `✅ The deployment${where} carrying #${pull} is verified: ${verdict.reason}. Closing #${issue} as done.`
      : `⚠️ The deployment${where} carrying #${pull} could not be verified (**${verdict.kind}**): ${verdict.reason}. ` +
        `A human needs to check whether this change is really running.`;
  return `${head}\n\n<details><summary>Evidence</summary>\n\n${evidence}\n</details>\n\n[bosun verify run](${logUrl})\n`;
}

/** At most 140 characters, the length GitHub keeps of a status description. */
function landingStatusDescription(report: LandingReport): string {
  const commits = report.unexamined?.commits;
  const n = report.fromUnexamined.length;
  const what = commits === undefined ? "an unknown number of deployed commits were not examined" : `${commits} deployed commit${commits === 1 ? " was" : "s were"} not examined`;
  const sent = n === 0 ? "" : `; ${n} item${n === 1 ? "" : "s"} sent to a human`;
  return `${what}${sent}; a human should land the items they carried`.slice(0, 140);
}

function landingMarkdown(report: LandingReport, verdict: VerifyVerdict): string {
  const rows = [...report.pulls.entries()].map(([issue, pull]) => {
    const what = report.landed.includes(issue) ? "closed, `bosun:done`" : report.needsHuman.includes(issue) ? "`bosun:needs-human`" : "not touched (over both caps)";
    return `| #${issue} | #${pull} | ${what} |`;
  });
  const unexamined =
    report.unexamined === undefined
      ? ""
      : `\n**Not examined:** ${report.unexamined.commits === undefined ? "an unknown number of" : report.unexamined.commits} commit(s) (${report.unexamined.reason}). ` +
        `Items they carried were not landed${report.fromUnexamined.length === 0 ? "" : `; those that could be named (${report.fromUnexamined.map((i) => `#${i}`).join(", ")}) were sent to a human with \`bosun:needs-human\``}. ` +
        `The commit status \`${DEPLOY_LANDING_CONTEXT}\` on the deployed commit says so; a human should land the rest.\n`;
  if (rows.length === 0) return `\n#### Items\n\nNo merged pull request in the examined range closes an issue.\n${unexamined}`;
  const title = verdict.kind === "verified" ? "Items landed" : "Items handed to a human";
  return `\n#### ${title}\n\n| issue | pull request | result |\n|---|---|---|\n${rows.join("\n")}\n${unexamined}`;
}
