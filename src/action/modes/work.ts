import { tmpdir } from "node:os";
import { join } from "node:path";
import { allowlistedEnv, BASE_ENV_NAMES } from "../../adapters/local/allowlisted-env.js";
import { processDispatcher } from "../../adapters/local/process-dispatcher.js";
import { secretValues } from "../../adapters/local/secret-values.js";
import { describeStop } from "../../core/stop/stop.js";
import type { ActionIo, ActionMode } from "../action-io.js";
import { integerInput, passEnvInput, tokenInput } from "../action-inputs.js";
import { actionScheduler } from "../action-scheduler.js";
import { failOnInputError } from "../fail-on-input-error.js";

/**
 * `work` mode: runs inside the workflow a `workflow` dispatch started. It acts only while its
 * epoch still holds the item, runs the agent command on the frozen brief under the brief's
 * wall-clock budget, and lands the agent's typed stop with its evidence on the claim — so the
 * landing reads structured output, not the run's log or a model's prose.
 */
const work: ActionMode = {
  async run(io: ActionIo) {
    const parsed = failOnInputError(io, "work", () => ({ item: integerInput(io, "item", { fallback: 0, min: 1 }), epoch: integerInput(io, "epoch", { fallback: 0, min: 1 }), passEnv: passEnvInput(io) }));
    if (parsed === undefined) return;
    const { item, epoch, passEnv } = parsed;
    const token = tokenInput(io);
    const briefHash = io.input("brief-hash").trim();
    const command = io.input("agent-command").trim();
    const missing = [token === "" && "github-token", !(item > 0) && "item", !(epoch > 0) && "epoch", briefHash === "" && "brief-hash", command === "" && "agent-command"].filter(Boolean);
    if (missing.length > 0) {
      io.setFailed(`bosun work: missing or invalid input${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`);
      return;
    }
    const ctx = await actionScheduler(io, "work", token, `work-${io.event.runId}`);
    if (ctx === undefined) return;
    const { config, scheduler } = ctx;
    const found = await scheduler.claimOf(config, item);
    if ("problem" in found) {
      io.setFailed(`bosun work: refusing to act: ${found.problem}`);
      return;
    }
    if (found.token === undefined || found.token.epoch !== epoch) {
      // Another worker holds the item now (or nobody does): doing the work would do it twice.
      io.setOutput("stop", JSON.stringify({ kind: "failed", failure: "refuse", reason: "stale epoch" }));
      io.setFailed(`bosun work: refusing to act on a stale epoch: this run has epoch ${epoch}, the item is ${found.token === undefined ? "not held" : `held at epoch ${found.token.epoch}`}`);
      return;
    }
    if (found.snapshot.hash !== briefHash) {
      io.setFailed(`bosun work: refusing to act: the approved brief is ${found.snapshot.hash}, this run was dispatched with ${briefHash}`);
      return;
    }
    const workdir = io.env["GITHUB_WORKSPACE"] ?? process.cwd();
    const dispatch = processDispatcher({
      command,
      stateDir: join(io.env["RUNNER_TEMP"] ?? tmpdir(), "bosun"),
      cwd: workdir,
      // The agent gets an allowlisted environment (never the runner's token or the Actions runtime's
      // credentials: it would act as this workflow) plus the step budgets it can honour; the wall
      // clock is enforced here.
      env: { ...allowlistedEnv(io.env, [...BASE_ENV_NAMES, ...passEnv]), BOSUN_MAX_STEPS: String(found.snapshot.brief.budget.steps), BOSUN_MAX_TOKENS: String(found.snapshot.brief.budget.tokens), BOSUN_MAX_TOOL_ERRORS: String(found.snapshot.brief.budget.tool_errors) },
      secrets: [token, ...secretValues(io.env)],
    });
    const result = await dispatch(found.token, found.snapshot.brief, found.snapshot.brief.tier, new AbortController().signal);
    io.setOutput("stop", JSON.stringify(result.stop));
    io.setOutput("evidence", JSON.stringify(result.evidence ?? null));
    io.setOutput("cost", JSON.stringify(result.cost ?? null));
    const landed = await scheduler.land(config, found.issue, found.token, result.stop, result.evidence, result.cost);
    await io.summary(
      [
        `### Bosun work on #${item} (epoch ${epoch})`,
        "",
        `| stop | landed | command | exit |`,
        `|---|---|---|---|`,
        `| ${describeStop(result.stop).replace(/\|/g, "\\|")} | ${landed === undefined ? "refused (stale epoch)" : landed.disposition} | \`${command.replace(/\|/g, "\\|")}\` | ${result.evidence?.exit ?? "—"} |`,
        "",
      ].join("\n"),
    );
    if (landed === undefined) io.setFailed("bosun work: the land was refused: the item moved to a newer epoch while the agent ran");
    else if (result.stop.kind !== "done") io.setFailed(`bosun work: ${describeStop(result.stop)}`);
  },
};

export default work;
