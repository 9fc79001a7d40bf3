import { mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { allowlistedEnv, BASE_ENV_NAMES } from "../../adapters/local/allowlisted-env.js";
import { processDispatcher } from "../../adapters/local/process-dispatcher.js";
import { secretValues } from "../../adapters/local/secret-values.js";
import { agentDispatcher } from "../../adapters/agents/agent-dispatcher.js";
import { publishItemPull } from "../../adapters/github/publish-item-pull.js";
import type { ItemPull } from "../../adapters/github/publish-item-pull.js";
import { AGENT_NAMES } from "../../core/agents/agent-preset.js";
import type { AgentPreset } from "../../core/agents/agent-preset.js";
import { parseEnvNames } from "../../core/agents/agent-env.js";
import { itemBranch } from "../../core/agents/item-branch.js";
import { PRESETS, agentByName } from "../../core/agents/presets.js";
import { formatProblems } from "../../core/brief/brief.js";
import { briefHash as hashOf, parseBriefObject } from "../../core/brief/parse-brief.js";
import { blocked, describeStop, failed } from "../../core/stop/stop.js";
import { fromMicros } from "../../core/budget/budget-cap.js";
import type { Stop } from "../../core/stop/stop.js";
import type { RunResult } from "../../core/engine/engine-loop.js";
import type { ActionIo, ActionMode } from "../action-io.js";
import { integerInput, passEnvInput, tokenInput, usdInput } from "../action-inputs.js";
import { actionScheduler } from "../action-scheduler.js";
import { applyWorkPatch } from "../apply-work-patch.js";
import { failOnInputError } from "../fail-on-input-error.js";
import { MAX_WORK_RESULT_BYTES, readWorkResult, renderWorkResult } from "../work-result.js";
import { normalizeLogin } from "../../core/separation/identity.js";
import { dispatchedBy } from "./work-dispatched-by.js";
import { changesSince, gitHead } from "./work-git.js";

const PHASES = ["check", "agent", "land"] as const;
type Phase = (typeof PHASES)[number];

/**
 * `work` mode, in three jobs so the agent never shares a process tree with a GitHub credential
 * (a child can read its parent's environment, `/proc/$PPID/environ`, and on hosted runners sudo
 * can read the runner's memory):
 * - `check` (App token): the epoch still holds the item and the brief is the approved one; the
 *   brief goes out as output `brief`.
 * - `agent` (no token at all): runs the agent (a preset, or `agent-command`) on that brief under
 *   its wall-clock budget and writes its typed stop and cost (`work-result`) and its changes as a
 *   patch (`work-patch`), for an artifact.
 * - `land` (App token): reads the agent's result back as hostile data, re-checks the epoch, with
 *   `open-pull-request` applies the patch to its own checkout and publishes it as the item's one
 *   pull request, and lands the stop and cost on the claim.
 */
const work: ActionMode = {
  async run(io: ActionIo) {
    const phase = io.input("work-phase").trim();
    if (!(PHASES as readonly string[]).includes(phase)) {
      io.setFailed(`bosun work: input 'work-phase' must be check, agent or land (got '${phase.slice(0, 20)}'): the agent runs in its own job with no GitHub credential, see docs/security.md`);
      return;
    }
    const parsed = failOnInputError(io, "work", () => ({ item: integerInput(io, "item", { fallback: 0, min: 1 }), epoch: integerInput(io, "epoch", { fallback: 0, min: 1 }), passEnv: passEnvInput(io) }));
    if (parsed === undefined) return;
    // Which agent, and whether Bosun opens the item's pull request (docs/agents.md): read in every
    // phase, since the land publishes what the agent job changed.
    const agentName = agentByName(io.input("agent").trim() || "command");
    if (agentName === undefined) {
      io.setFailed(`bosun work: input 'agent' must be one of ${AGENT_NAMES.join(", ")} (got '${io.input("agent").trim().slice(0, 40)}')`);
      return;
    }
    const preset = agentName === "command" ? undefined : PRESETS[agentName];
    const openPullText = io.input("open-pull-request").trim() || (preset === undefined ? "false" : "true");
    if (openPullText !== "true" && openPullText !== "false") {
      io.setFailed(`bosun work: input 'open-pull-request' must be true or false (got '${openPullText.slice(0, 20)}')`);
      return;
    }
    const token = phase === "agent" ? "" : tokenInput(io);
    const briefHash = io.input("brief-hash").trim();
    const need: Record<Phase, [string, boolean][]> = {
      check: [["github-token", token !== ""]],
      agent: [["agent-command", preset !== undefined || io.input("agent-command").trim() !== ""], ["brief", io.input("brief").trim() !== ""]],
      land: [["github-token", token !== ""]],
    };
    const missing = [...need[phase as Phase], ["item", parsed.item > 0], ["epoch", parsed.epoch > 0], ["brief-hash", briefHash !== ""]].filter(([, ok]) => !ok).map(([name]) => name);
    if (missing.length > 0) {
      io.setFailed(`bosun work: missing or invalid input${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`);
      return;
    }
    const ctx = { ...parsed, token, briefHash, preset, openPull: openPullText === "true" };
    if (phase === "agent") return agentPhase(io, ctx);
    return checkOrLand(io, phase as "check" | "land", ctx);
  },
};

interface WorkCtx {
  readonly item: number;
  readonly epoch: number;
  readonly briefHash: string;
  readonly token: string;
  readonly passEnv: readonly string[];
  /** The agent preset; undefined for `agent: command` (`agent-command`). */
  readonly preset: AgentPreset | undefined;
  readonly openPull: boolean;
}

const resultPath = (io: ActionIo): string => io.input("work-result").trim() || join(io.env["RUNNER_TEMP"] ?? tmpdir(), "bosun-work", "result.json");
const patchPath = (io: ActionIo): string => io.input("work-patch").trim() || join(io.env["RUNNER_TEMP"] ?? tmpdir(), "bosun-work", "changes.patch");

/** The App-token phases: the epoch and brief are checked before the agent runs and again before landing. */
async function checkOrLand(io: ActionIo, phase: "check" | "land", ctx: WorkCtx): Promise<void> {
  const found = await heldItem(io, ctx);
  if (found === undefined) return;
  if (phase === "check") {
    io.setOutput("brief", JSON.stringify(found.brief));
    // What this epoch reserved under the money caps, as the grant recorded it: the agent's share.
    const mark = found.record.spend?.find((m) => m.epoch === ctx.epoch);
    io.setOutput("reserve-usd", mark === undefined ? "" : String(fromMicros(mark.reserveMicros)));
    await io.summary(`### Bosun work on #${ctx.item} (epoch ${ctx.epoch}): checked\n\nBosun dispatched this run; the item is held at this epoch by a record GitHub signed for the App, and the brief is the approved one (\`${ctx.briefHash}\`).\n`);
    return;
  }
  const path = resultPath(io);
  let text = "";
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    io.setFailed(`bosun work: the agent's result '${path}' cannot be read: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  const result = readWorkResult(text, `'${path}'`);
  if ("problem" in result) {
    io.setFailed(`bosun work: refusing to land: ${result.problem}`);
    return;
  }
  // The file is the agent's to write: it counts only for the run this job was dispatched for.
  const wrong = [result.item !== ctx.item && `item ${result.item} (not ${ctx.item})`, result.epoch !== ctx.epoch && `epoch ${result.epoch} (not ${ctx.epoch})`, result.briefHash !== ctx.briefHash && `brief ${result.briefHash.slice(0, 19)}… (not the dispatched one)`].filter(Boolean);
  if (wrong.length > 0) {
    io.setFailed(`bosun work: refusing to land: the agent's result is for ${wrong.join(", ")}`);
    return;
  }
  let stop: Stop = result.stop;
  let pull: ItemPull | undefined;
  if (ctx.openPull && stop.kind === "done") {
    // The epoch was checked just above: a run that lost its item publishes nothing.
    const workdir = io.env["GITHUB_WORKSPACE"] ?? process.cwd();
    const applied = await applyWorkPatch(workdir, patchPath(io));
    if ("problem" in applied) stop = failed("unclassified", applied.problem);
    else if (applied.changes.length === 0) stop = blocked("the agent reported done but changed no file");
    else {
      const branch = itemBranch(ctx.item, found.brief.goal);
      try {
        const payload = io.event.payload as { repository?: { default_branch?: string } };
        const title = `#${ctx.item}: ${found.brief.goal}`.slice(0, 250);
        // GITHUB_SHA is the commit the run was dispatched at, which both checkouts are of.
        pull = await publishItemPull(found.octokit, { ...io.event.repo, issue: ctx.item, epoch: ctx.epoch, base: payload.repository?.default_branch ?? "main", baseSha: io.env["GITHUB_SHA"] ?? applied.base, branch, title, briefHash: ctx.briefHash, changes: applied.changes });
        io.setOutput("pull-request", String(pull.number));
        io.setOutput("branch", branch);
      } catch (err) {
        stop = failed("unclassified", `could not publish the agent's changes: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
  io.setOutput("stop", JSON.stringify(stop));
  io.setOutput("evidence", JSON.stringify(result.evidence));
  io.setOutput("cost", JSON.stringify(result.cost ?? null));
  // The landing is recorded once, in the claim record (with the stop, the evidence and the cost):
  // done with its pull request is "PR open, gate pending"; the App reads it back, never decides it again.
  let landed: Awaited<ReturnType<typeof found.ticker.landRun>>;
  try {
    landed = await found.ticker.landRun(found.config, ctx.item, found.token, stop, { evidence: result.evidence, ...(result.cost === undefined ? {} : { cost: result.cost }), ...(pull === undefined ? {} : { pull: pull.number }), ...(io.event.runId > 0 ? { run: io.event.runId } : {}) });
  } catch (err) {
    // The claim ref could not be written (GitHub failed and nothing moved): the outcome is in this
    // run's outputs and conclusion, and the scheduler lands or reclaims the item from there.
    io.setFailed(`bosun work: the land could not be written: ${err instanceof Error ? err.message : String(err)}; the scheduler takes the item back from this run's conclusion`);
    return;
  }
  const state = landed === undefined ? "refused (stale epoch)" : landed.state === "review" ? `PR open, gate pending` : landed.state === "released" ? "back in the queue" : (landed.outcome?.summary ?? landed.state);
  await io.summary(
    [
      `### Bosun work on #${ctx.item} (epoch ${ctx.epoch})`,
      "",
      `| stop | item | command | exit | pull request |`,
      `|---|---|---|---|---|`,
      `| ${describeStop(stop).replace(/\|/g, "\\|")} | ${state.replace(/\|/g, "\\|")} | \`${result.evidence.command.replace(/[|`]/g, "\\$&")}\` | ${result.evidence.exit ?? "—"} | ${pull === undefined ? "—" : `#${pull.number}${pull.created ? "" : " (reused)"}`} |`,
      "",
    ].join("\n"),
  );
  if (landed === undefined) io.setFailed("bosun work: the land was refused: the item moved to a newer epoch while the agent ran");
  else if (stop.kind !== "done") io.setFailed(`bosun work: ${describeStop(stop)}`);
}

/**
 * The item this run may act on, or undefined (the step failed, saying why): only a run the App
 * dispatched (GitHub records who started a run; anyone with write access can start this workflow
 * with any inputs), on an item held at exactly this epoch by a record GitHub signed for the App,
 * for exactly the approved brief.
 */
async function heldItem(io: ActionIo, ctx: WorkCtx) {
  const sched = await actionScheduler(io, "work", ctx.token, `work-${io.event.runId}`);
  if (sched === undefined) return undefined;
  const dispatcher = await dispatchedBy(sched.octokit, io);
  if (dispatcher.problem !== undefined || normalizeLogin(dispatcher.actor) !== normalizeLogin(sched.botLogin)) {
    io.setOutput("stop", JSON.stringify({ kind: "failed", failure: "refuse", reason: "not dispatched by Bosun" }));
    io.setFailed(`bosun work: refusing to act: this run was not dispatched by ${sched.botLogin} (${dispatcher.problem ?? `GitHub says ${dispatcher.actor} started it, by ${dispatcher.event}`}); only the runs Bosun dispatches work on its items`);
    return undefined;
  }
  const found = await sched.ticker.heldItem(sched.config, ctx.item, ctx.epoch, ctx.briefHash);
  if (!found.ok) {
    // Another worker holds the item now, nobody does, or the record is not Bosun's: doing the work would do it twice or for nobody.
    io.setOutput("stop", JSON.stringify({ kind: "failed", failure: "refuse", reason: found.problem }));
    io.setFailed(`bosun work: refusing to act: ${found.problem}`);
    return undefined;
  }
  return { ...sched, ...found };
}

/** The agent's job: no GitHub credential is even accepted here, so none can reach the agent. */
async function agentPhase(io: ActionIo, ctx: WorkCtx): Promise<void> {
  // Bosun dispatches a run's first attempt only. Anyone with write access can re-run this job on
  // its own, and a job re-run keeps the check job's outputs from attempt 1: without this the agent
  // would run again on a checked brief, spending the model key outside the money caps, with no
  // check of who asked (this job holds no token to ask GitHub; the runner sets the attempt).
  const attempt = (io.env["GITHUB_RUN_ATTEMPT"] ?? "").trim();
  if (attempt !== "" && attempt !== "1") {
    io.setFailed(`bosun work: refusing to run the agent: this is attempt ${attempt.slice(0, 10)} of the run (a re-run${io.env["GITHUB_TRIGGERING_ACTOR"] ? ` by ${io.env["GITHUB_TRIGGERING_ACTOR"].slice(0, 60)}` : ""}); Bosun works only in the first attempt of a run it dispatched`);
    return;
  }
  // The explicit inputs only: the job's environment is the workflow's to keep clean (the trust
  // rules hold the shipped agent job to no App credential and no permissions).
  if (io.input("github-token").trim() !== "" || io.input("token").trim() !== "") {
    io.setFailed("bosun work: the agent phase takes no github-token (set it to '' in the agent job): the agent runs code its brief does not bound, in the same process tree; give the token to the check and land jobs only");
    return;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(io.input("brief"));
  } catch {
    io.setFailed("bosun work: input 'brief' is not JSON (pass the check job's output `brief`)");
    return;
  }
  const parsed = parseBriefObject(raw, { name: "input brief", defaultId: String(ctx.item) });
  if (!parsed.ok) {
    io.setFailed(`bosun work: input 'brief' is not a valid brief:\n${formatProblems(parsed.problems)}`);
    return;
  }
  const brief = parsed.brief;
  if (hashOf(brief) !== ctx.briefHash) {
    io.setFailed(`bosun work: input 'brief' hashes to ${hashOf(brief)}, not the dispatched ${ctx.briefHash}`);
    return;
  }
  const extraEnv = parseEnvNames(io.input("agent-env"), "agent-env");
  if ("problem" in extraEnv) {
    io.setFailed(`bosun work: ${extraEnv.problem}`);
    return;
  }
  const share = failOnInputError(io, "work", () => usdInput(io, "reserve-usd"));
  if (share === undefined) return;
  const command = io.input("agent-command").trim();
  const workdir = io.env["GITHUB_WORKSPACE"] ?? process.cwd();
  const before = await gitHead(workdir);
  const stateDir = join(io.env["RUNNER_TEMP"] ?? tmpdir(), "bosun");
  let result: RunResult;
  if (ctx.openPull && before === undefined) {
    // Its changes could never be published: retrying cannot fix a workflow without a checkout, so
    // the land sends it to a human at once (not at lease expiry), and no agent runs for nothing.
    result = { stop: failed("unclassified", `open-pull-request needs the repository checked out in GITHUB_WORKSPACE: ${workdir} is not a git checkout`) };
  } else {
    const dispatch =
      ctx.preset !== undefined
        ? // The preset's own credentials and settings by name, the workflow's extra names, Bosun's
          // variables: nothing else of this job's environment (agentEnv never hands on a runner token).
          agentDispatcher({ preset: ctx.preset, stateDir, cwd: workdir, env: io.env, extraEnv: [...extraEnv.names, ...ctx.passEnv], secrets: secretValues(io.env), target: { issue: ctx.item, branch: itemBranch(ctx.item, brief.goal), briefHash: ctx.briefHash } })
        : processDispatcher({
            command,
            stateDir,
            cwd: workdir,
            // An allowlisted environment (never the runner's token or the Actions runtime's credentials)
            // plus the step budgets the agent can honour; the wall clock is enforced here.
            env: { ...allowlistedEnv(io.env, [...BASE_ENV_NAMES, ...ctx.passEnv, ...extraEnv.names]), BOSUN_MAX_STEPS: String(brief.budget.steps), BOSUN_MAX_TOKENS: String(brief.budget.tokens), BOSUN_MAX_TOOL_ERRORS: String(brief.budget.tool_errors) },
            secrets: secretValues(io.env),
          });
    result = await dispatch({ epoch: ctx.epoch }, brief, brief.tier, new AbortController().signal, share.usd === undefined ? undefined : { usd: share.usd });
  }
  const evidence = result.evidence ?? { command: ctx.preset === undefined ? command : "", exit: null, lines: [] };
  const cost = result.cost;
  const out = resultPath(io);
  await mkdir(dirname(out), { recursive: true });
  const base = { item: ctx.item, epoch: ctx.epoch, briefHash: ctx.briefHash, stop: result.stop, ...(cost === undefined ? {} : { cost }) };
  const text = renderWorkResult({ ...base, evidence });
  await writeFile(out, new TextEncoder().encode(text).length > MAX_WORK_RESULT_BYTES ? renderWorkResult({ ...base, evidence: { ...evidence, lines: evidence.lines.slice(-5).map((l) => l.slice(0, 200)) } }) : text);
  const patch = patchPath(io);
  await mkdir(dirname(patch), { recursive: true });
  await writeFile(patch, before === undefined ? "" : await changesSince(workdir, before));
  io.setOutput("stop", JSON.stringify(result.stop));
  io.setOutput("evidence", JSON.stringify(evidence));
  io.setOutput("cost", JSON.stringify(cost ?? null));
  io.setOutput("work-result", out);
  io.setOutput("work-patch", patch);
  await io.summary(`### Bosun agent on #${ctx.item} (epoch ${ctx.epoch})\n\n${describeStop(result.stop)} — exit ${evidence.exit ?? "—"}; the land job decides what it counts for.\n`);
}

export default work;

