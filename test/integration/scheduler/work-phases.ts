import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import work from "../../../src/action/modes/work.js";
import { memoryActionIo } from "../gate/memory-action-io.js";

type Io = ReturnType<typeof memoryActionIo>;

/**
 * The shipped work workflow's three jobs, in order: `check` and `land` with the bot's token, the
 * agent between them with none; only the check job's `brief` output and the agent's result file
 * cross between them (and `reserve-usd`, the epoch's share of the money caps), as the workflow's job
 * outputs and artifact do.
 */
export async function runWorkPhases(apiUrl: string, inputs: Record<string, string>, env: Record<string, string | undefined> = {}, setup?: (dir: string) => Promise<void>, run?: { sha: string; runId: number }): Promise<{ check: Io; agent?: Io; land?: Io; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), "bosun-work-"));
  // The runner's temp folder is outside the workspace, as on a runner: the patch is the workspace's changes only.
  const temp = await mkdtemp(join(tmpdir(), "bosun-work-temp-"));
  await setup?.(dir);
  const { "agent-command": agentCommand = "true", "pass-env": passEnv = "", ...common } = inputs;
  const base = { RUNNER_TEMP: temp, GITHUB_WORKSPACE: dir, PATH: process.env["PATH"], ...env };
  const trusted = { "github-token": "t-bot", "bot-login": "bosun[bot]", ...common };
  // Every job of a run sees its run (GITHUB_RUN_ID): the check and land jobs ask GitHub who started it.
  const runEvent = run === undefined ? {} : { event: run };
  const check = memoryActionIo({ inputs: { ...trusted, "work-phase": "check" }, eventName: "workflow_dispatch", payload: {}, env: { GITHUB_API_URL: apiUrl, RUNNER_TEMP: temp }, ...runEvent });
  await work.run(check.io);
  if (check.failures.length > 0) return { check, dir };
  const { "github-token": _token, "bot-login": _bot, ...untrusted } = trusted;
  const agent = memoryActionIo({ inputs: { ...untrusted, "work-phase": "agent", brief: check.outputs["brief"] ?? "", "reserve-usd": check.outputs["reserve-usd"] ?? "", "agent-command": agentCommand, "pass-env": passEnv }, eventName: "workflow_dispatch", payload: {}, env: base });
  await work.run(agent.io);
  // `run`: the workflow run the jobs belong to (GITHUB_SHA, GITHUB_RUN_ID), which the land job's record names.
  const land = memoryActionIo({ inputs: { ...trusted, "work-phase": "land", "work-result": agent.outputs["work-result"] ?? "" }, eventName: "workflow_dispatch", payload: {}, env: { GITHUB_API_URL: apiUrl, RUNNER_TEMP: temp, GITHUB_WORKSPACE: dir }, ...runEvent });
  await work.run(land.io);
  return { check, agent, land, dir };
}
