/**
 * One job of a played run, as a runner runs it: its `if:` against its needs, its environment's
 * protection rule and secrets, a GITHUB_TOKEN minted with exactly the job's permissions (revoked at
 * the end), a fresh workspace and RUNNER_TEMP, then its steps in order with `if:`,
 * `continue-on-error`, outputs and `GITHUB_ENV`, and its `outputs:` evaluated at the end (one that
 * holds a secret is dropped, as GitHub drops it).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { downloadArtifactStep, uploadArtifactStep } from "./artifact-steps.js";
import { bosunActionStep } from "./bosun-action-step.js";
import { checkoutStep } from "./checkout-step.js";
import { createAppTokenStep } from "./create-app-token-step.js";
import type { ExpressionScope } from "./evaluate-expression.js";
import { toValue, truthy, type Value } from "./expression-values.js";
import { evaluateIf, interpolate, interpolateValue } from "./interpolate.js";
import { githubContext, runnerEnv } from "./job-environment.js";
import type { StepSpec } from "./parse-workflow.js";
import { tokenScopes } from "./token-scopes.js";
import { jobNeeds } from "./job-needs.js";
import type { JobRecord, PlayedRun, PlayerRuntime, QueuedJob } from "./player-types.js";
import { runShellStep } from "./run-shell-step.js";
import type { StepContext, StepOutcome } from "./step-context.js";

/** The action a `uses:` names, without its version, or `./`. */
function actionName(uses: string): string {
  return uses.startsWith("./") ? "./" : (uses.split("@")[0] ?? uses).toLowerCase();
}

type StepRunner = (ctx: StepContext, step: StepSpec) => Promise<StepOutcome>;
const ACTIONS: Record<string, StepRunner> = {
  "actions/checkout": (ctx) => checkoutStep(ctx),
  "actions/create-github-app-token": (ctx) => createAppTokenStep(ctx),
  "actions/setup-node": async () => ({ ok: true, outputs: {} }),
  "actions/upload-artifact": (ctx) => uploadArtifactStep(ctx),
  "actions/download-artifact": (ctx) => downloadArtifactStep(ctx),
  "bosun-dev/bosun": (ctx) => bosunActionStep(ctx),
  "./": (ctx) => bosunActionStep(ctx),
};

function mask(text: string, secrets: readonly string[]): string {
  return secrets.reduce((t, s) => (s.length >= 4 ? t.split(s).join("***") : t), text);
}

/** Runs a queued job of `run` to its end; never throws (a problem is the job's failure, with its reason). */
export async function runJob(runtime: PlayerRuntime, run: PlayedRun, entry: QueuedJob): Promise<JobRecord> {
  const { spec: job, frame } = entry;
  const record: JobRecord = { id: entry.key, result: "success", outputs: {}, log: [], summaries: [] };
  const { options } = runtime;
  const { needs, results: needResults, status: jobStatus } = jobNeeds(run, entry);
  const repo = run.repo;
  const github = githubContext(run, job, options.fake.url);
  const contexts = (extra: Record<string, Value>): Record<string, Value> => ({ github, inputs: frame.inputs, vars: { ...options.vars }, needs, matrix: entry.matrix, strategy: entry.strategy, ...extra });
  const fail = (reason: string): JobRecord => {
    record.result = "failure";
    record.reason = reason;
    record.log.push(`[job] ${reason}`);
    return record;
  };
  try {
    // A matrix leg's if: was evaluated once for the whole matrix, before it was expanded.
    // jobs.<id>.if sees github, needs, vars and inputs only (no matrix, no strategy).
    if (!entry.conditionChecked && !evaluateIf(job.if, { contexts: { github, inputs: frame.inputs, vars: { ...options.vars }, needs }, status: jobStatus })) {
      record.result = "skipped";
      record.reason = job.if === undefined ? `a needed job did not succeed (${needResults.join(", ")})` : `if: ${String(job.if)} is false`;
      return record;
    }
  } catch (err) {
    return fail(`jobs.${job.id}.if: ${err instanceof Error ? err.message : String(err)}`);
  }
  const environmentName = job.environment === undefined ? undefined : interpolate(job.environment.name, { contexts: contexts({}) });
  const environment = environmentName === undefined ? undefined : options.environments?.[environmentName];
  if (environment?.defaultBranchOnly === true && run.ref !== `refs/heads/${repo.defaultBranch}`) {
    return fail(`Branch "${run.ref.replace(/^refs\/heads\//, "")}" is not allowed to deploy to ${environmentName ?? ""} due to environment protection rules.`);
  }
  const token = runtime.mintJobToken(run, tokenScopes(job.permissions ?? frame.permissions));
  // A called workflow's jobs see the secrets its caller passed (all of them with `secrets: inherit`),
  // then their environment's — but an environment secret only under a name the caller passed.
  const passed = frame.passedSecrets;
  const environmentSecrets = Object.entries(environment?.secrets ?? {}).filter(([name]) => passed === undefined || passed === "inherit" || passed.includes(name));
  const secretsMap: Record<string, string> = { ...frame.secrets, ...Object.fromEntries(environmentSecrets), GITHUB_TOKEN: token };
  const masks = [...Object.values(secretsMap)];
  const log = (step: string) => (line: string) => {
    const text = `[${entry.key}/${step}] ${mask(line, masks)}`;
    record.log.push(text);
    options.log?.(`run ${run.id} ${run.workflow.name}: ${text}`);
  };
  try {
    const root = mkdtempSync(join(options.workRoot ?? tmpdir(), `run-${run.id}-${job.id}-`));
    const workspace = join(root, "workspace");
    const runnerTemp = join(root, "temp");
    mkdirSync(workspace);
    mkdirSync(runnerTemp);
    const eventPath = join(root, "event.json");
    writeFileSync(eventPath, JSON.stringify(run.payload));
    github["token"] = token;
    github["workspace"] = workspace;
    github["event_path"] = eventPath;
    const runner: Record<string, Value> = { os: "Linux", arch: "X64", name: "player", temp: runnerTemp, tool_cache: join(root, "toolcache"), environment: "github-hosted" };
    const baseEnv = runnerEnv(run, job, { workspace, runnerTemp, eventPath, home: root, apiUrl: options.fake.url, refName: String(github["ref_name"]), extra: options.runnerEnv });
    masks.push(baseEnv["ACTIONS_RUNTIME_TOKEN"] as string);
    const secrets = toValue(secretsMap);
    let env: Record<string, string> = {};
    const envScope = (): ExpressionScope => ({ contexts: contexts({ secrets, runner, env, steps: {} }) });
    for (const [k, v] of Object.entries(frame.workflow.env)) env[k] = interpolate(v, envScope());
    for (const [k, v] of Object.entries(job.env)) env[k] = interpolate(v, envScope());
    const steps: Record<string, Value> = {};
    let failedBefore = false;
    for (const [index, step] of job.steps.entries()) {
      const label = step.name ?? step.uses ?? (step.run ?? "").split("\n")[0] ?? `step ${index}`;
      const stepLog = log(step.id ?? String(index));
      const scope: ExpressionScope = { contexts: contexts({ secrets, runner, env, steps, job: { status: failedBefore ? "failure" : "success" } }), status: { success: !failedBefore, failure: failedBefore, cancelled: false } };
      let outcome: StepOutcome;
      let continueOnError = false;
      try {
        if (!evaluateIf(step.if, scope)) {
          if (step.id !== undefined) steps[step.id] = { outputs: {}, outcome: "skipped", conclusion: "skipped" };
          stepLog(`skipped (${step.if === undefined ? "an earlier step failed" : `if: ${String(step.if)}`})`);
          continue;
        }
        continueOnError = typeof step.continueOnError === "string" ? truthy(interpolateValue(step.continueOnError, scope)) : step.continueOnError;
        const stepEnv = { ...env, ...Object.fromEntries(Object.entries(step.env).map(([k, v]) => [k, interpolate(v, scope)])) };
        const stepScope: ExpressionScope = { ...scope, contexts: { ...scope.contexts, env: stepEnv } };
        const inputs = Object.fromEntries(Object.entries(step.with).map(([k, v]) => [k, interpolate(v, stepScope)]));
        const ctx: StepContext = {
          runtime,
          run,
          job,
          label,
          inputs,
          env: { ...baseEnv, ...stepEnv },
          scope: stepScope,
          workspace,
          runnerTemp,
          githubToken: token,
          log: stepLog,
          addMask: (value) => masks.push(value),
        };
        if (step.run !== undefined) outcome = await runShellStep(ctx, interpolate(step.run, stepScope), step.shell, step.workingDirectory === undefined ? undefined : interpolate(step.workingDirectory, stepScope));
        else {
          const runner = ACTIONS[actionName(step.uses ?? "")];
          outcome = runner === undefined ? { ok: false, outputs: {}, message: `the player does not know the action ${step.uses ?? ""}; add it to run-job.ts or use a run: step` } : await runner(ctx, step);
        }
      } catch (err) {
        outcome = { ok: false, outputs: {}, message: err instanceof Error ? err.message : String(err) };
      }
      if (outcome.summary !== undefined && outcome.summary !== "") record.summaries.push(mask(outcome.summary, masks));
      if (outcome.env !== undefined) env = { ...env, ...outcome.env };
      if (!outcome.ok) stepLog(`failed: ${outcome.message ?? ""}${continueOnError ? " (continue-on-error)" : ""}`);
      const result = outcome.ok ? "success" : "failure";
      if (step.id !== undefined) steps[step.id] = { outputs: { ...outcome.outputs }, outcome: result, conclusion: outcome.ok || continueOnError ? "success" : "failure" };
      if (!outcome.ok && !continueOnError) {
        failedBefore = true;
        record.reason ??= `step ${step.id ?? index} (${label}) failed: ${mask(outcome.message ?? "", masks)}`;
      }
    }
    const outScope: ExpressionScope = { contexts: contexts({ secrets, runner, env, steps }) };
    for (const [name, expression] of Object.entries(job.outputs)) {
      const value = interpolate(expression, outScope);
      // "Outputs containing secrets are redacted on the runner and not sent to GitHub Actions."
      if (masks.some((s) => s.length >= 4 && value.includes(s))) log("outputs")(`warning: Skip output '${name}' since it may contain secret.`);
      else record.outputs[name] = value;
    }
    record.result = failedBefore && !job.continueOnError ? "failure" : "success";
    return record;
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  } finally {
    runtime.revokeToken(token);
  }
}
