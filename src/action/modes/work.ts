import { tmpdir } from "node:os";
import { join } from "node:path";
import { allowlistedEnv, BASE_ENV_NAMES } from "../../adapters/local/allowlisted-env.js";
import { processDispatcher } from "../../adapters/local/process-dispatcher.js";
import { secretValues } from "../../adapters/local/secret-values.js";
import { blocked, describeStop, failed } from "../../core/stop/stop.js";
import type { Stop } from "../../core/stop/stop.js";
import { agentDispatcher } from "../../adapters/agents/agent-dispatcher.js";
import { publishItemPull } from "../../adapters/github/publish-item-pull.js";
import type { ItemPull } from "../../adapters/github/publish-item-pull.js";
import { headCommit, workingTreeChanges } from "../../adapters/local/working-tree-changes.js";
import { AGENT_NAMES } from "../../core/agents/agent-preset.js";
import { parseEnvNames } from "../../core/agents/agent-env.js";
import { itemBranch } from "../../core/agents/item-branch.js";
import { PRESETS, agentByName } from "../../core/agents/presets.js";
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
    // --- agent presets (docs/agents.md): which agent, which extra names it gets, whether Bosun opens the PR ---
    const agent = agentByName(io.input("agent").trim() || "command");
    if (agent === undefined) {
      io.setFailed(`bosun work: agent must be one of ${AGENT_NAMES.join(", ")}, got '${io.input("agent").trim()}'`);
      return;
    }
    const preset = agent === "command" ? undefined : PRESETS[agent];
    const extraEnv = parseEnvNames(io.input("agent-env"), "agent-env");
    if ("problem" in extraEnv) {
      io.setFailed(`bosun work: ${extraEnv.problem}`);
      return;
    }
    const openPull = (io.input("open-pull-request").trim() || (preset === undefined ? "false" : "true")) === "true";
    const missing = [token === "" && "github-token", !(item > 0) && "item", !(epoch > 0) && "epoch", briefHash === "" && "brief-hash", preset === undefined && command === "" && "agent-command"].filter(Boolean);
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
    const stateDir = join(io.env["RUNNER_TEMP"] ?? tmpdir(), "bosun");
    const branch = itemBranch(item, found.snapshot.brief.goal);
    let start: string | undefined;
    if (openPull) {
      try {
        start = await headCommit(workdir);
      } catch (err) {
        // A workflow without a checkout cannot be fixed by retrying: a human looks, now, not at lease expiry.
        const message = `open-pull-request needs the repository checked out in GITHUB_WORKSPACE: ${err instanceof Error ? err.message : String(err)}`;
        await scheduler.land(config, found.issue, found.token, failed("unclassified", message));
        io.setFailed(`bosun work: ${message}`);
        return;
      }
    }
    const dispatch =
      preset !== undefined
        ? agentDispatcher({ preset, stateDir, cwd: workdir, env: io.env, extraEnv: [...extraEnv.names, ...passEnv], secrets: [token, ...secretValues(io.env)], target: { issue: item, branch, briefHash } })
        : processDispatcher({
            command,
            stateDir,
            cwd: workdir,
            // The agent gets an allowlisted environment (never the runner's token or the Actions runtime's
            // credentials: it would act as this workflow) plus the step budgets it can honour; the wall
            // clock is enforced here.
            env: { ...allowlistedEnv(io.env, [...BASE_ENV_NAMES, ...passEnv]), BOSUN_MAX_STEPS: String(found.snapshot.brief.budget.steps), BOSUN_MAX_TOKENS: String(found.snapshot.brief.budget.tokens), BOSUN_MAX_TOOL_ERRORS: String(found.snapshot.brief.budget.tool_errors) },
            secrets: [token, ...secretValues(io.env)],
          });
    const result = await dispatch(found.token, found.snapshot.brief, found.snapshot.brief.tier, new AbortController().signal);
    let stop: Stop = result.stop;
    let pull: ItemPull | undefined;
    if (start !== undefined && stop.kind === "done") {
      // The claim is checked again first: a run that lost its item publishes nothing.
      const again = await scheduler.claimOf(config, item);
      if ("problem" in again || again.token?.epoch !== epoch) stop = failed("refuse", "stale epoch: the item moved while the agent ran; nothing was published");
      else {
        try {
          const changes = await workingTreeChanges(workdir, start);
          if (changes.length === 0) stop = blocked("the agent reported done but changed no file");
          else {
            const payload = io.event.payload as { repository?: { default_branch?: string } };
            const title = `#${item}: ${found.snapshot.brief.goal}`.slice(0, 250);
            pull = await publishItemPull(ctx.octokit, { ...io.event.repo, issue: item, epoch, base: payload.repository?.default_branch ?? "main", baseSha: io.env["GITHUB_SHA"] ?? start, branch, title, briefHash, changes });
            io.setOutput("pull-request", String(pull.number));
            io.setOutput("branch", branch);
          }
        } catch (err) {
          stop = failed("unclassified", `could not publish the agent's changes: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    }
    io.setOutput("stop", JSON.stringify(stop));
    io.setOutput("evidence", JSON.stringify(result.evidence ?? null));
    io.setOutput("cost", JSON.stringify(result.cost ?? null));
    let landed: Awaited<ReturnType<typeof scheduler.land>>;
    try {
      landed = await scheduler.land(config, found.issue, found.token, stop, result.evidence, result.cost);
    } catch (err) {
      // The claim ref could not be written (GitHub failed and nothing moved): the outcome is in this
      // run's outputs and conclusion, and the scheduler lands or reclaims the item from there.
      io.setFailed(`bosun work: the land could not be written: ${err instanceof Error ? err.message : String(err)}; the scheduler takes the item back from this run's conclusion`);
      return;
    }
    await io.summary(
      [
        `### Bosun work on #${item} (epoch ${epoch})`,
        "",
        `| stop | landed | command | exit | pull request |`,
        `|---|---|---|---|---|`,
        `| ${describeStop(stop).replace(/\|/g, "\\|")} | ${landed === undefined ? "refused (stale epoch)" : landed.disposition} | \`${(result.evidence?.command ?? command).replace(/\|/g, "\\|")}\` | ${result.evidence?.exit ?? "—"} | ${pull === undefined ? "—" : `#${pull.number}${pull.created ? "" : " (reused)"}`} |`,
        "",
      ].join("\n"),
    );
    if (landed === undefined) io.setFailed("bosun work: the land was refused: the item moved to a newer epoch while the agent ran");
    else if (stop.kind !== "done") io.setFailed(`bosun work: ${describeStop(stop)}`);
  },
};

export default work;
