import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { parseDuration, parseDurationMs } from "../core/brief/duration.js";
import { ENGINE_DEFAULTS } from "../core/engine/engine-options.js";
import { POLICY_NAMES, policyByName } from "../core/queue/queue-policy.js";
import type { QueuePolicy } from "../core/queue/queue-policy-type.js";
import { AGENT_NAMES, type AgentName, type AgentPreset } from "../core/agents/agent-preset.js";
import { PRESETS, agentByName } from "../core/agents/presets.js";
import { argsErrorMessage } from "./usage-error.js";

/** `bosun drain`'s flags, checked: what the drain runs with. */
export interface DrainArgs {
  readonly pool: number;
  readonly attempts: number;
  readonly policy: QueuePolicy;
  /** The claim lease, in seconds. */
  readonly lease: number;
  readonly backoffMs: number;
  readonly dryRun: boolean;
  readonly budgetUsd: number | undefined;
  readonly itemUsd: number | undefined;
  /** `--agent NAME`; `command` is --run CMD by another name. */
  readonly agent: AgentName | undefined;
  /** The agent preset to run, when `--agent` names one. */
  readonly preset: AgentPreset | undefined;
  /** `--run CMD`. */
  readonly run: string | undefined;
  readonly briefsDir: string;
  readonly stateDir: string;
  readonly holder: string | undefined;
  readonly quiet: boolean;
  readonly json: boolean;
}

/**
 * `bosun drain`'s arguments, parsed and checked in the order the usage lists them; folders are
 * resolved from `cwd`. A wrong one answers the usage error's message, the first found.
 */
export async function parseDrainArgs(args: readonly string[], cwd: string): Promise<{ ok: true; args: DrainArgs } | { ok: false; message: string }> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        briefs: { type: "string", default: "briefs" },
        pool: { type: "string" },
        run: { type: "string" },
        agent: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        policy: { type: "string", default: "hybrid" },
        state: { type: "string", default: ".bosun" },
        lease: { type: "string", default: "5m" },
        attempts: { type: "string" },
        backoff: { type: "string", default: "1s" },
        "budget-usd": { type: "string" },
        "item-usd": { type: "string" },
        holder: { type: "string" },
        quiet: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return { ok: false, message: argsErrorMessage(err) };
  }
  const pool = values.pool === undefined ? ENGINE_DEFAULTS.pool : Number(values.pool);
  if (!Number.isInteger(pool) || pool < 1) return { ok: false, message: `--pool must be a whole number above 0, got '${values.pool}'` };
  const attempts = values.attempts === undefined ? ENGINE_DEFAULTS.maxAttempts : Number(values.attempts);
  if (!Number.isInteger(attempts) || attempts < 1) return { ok: false, message: `--attempts must be a whole number above 0, got '${values.attempts}'` };
  const policy = policyByName(values.policy);
  if (policy === undefined) return { ok: false, message: `--policy must be one of ${POLICY_NAMES.join(", ")}, got '${values.policy}'` };
  const lease = parseDuration(values.lease);
  if (lease === undefined || lease < 1) return { ok: false, message: `--lease must be a duration such as 90s, 5m, got '${values.lease}'` };
  // The one duration parser, in milliseconds (`100ms` is a backoff too).
  const backoffMs = parseDurationMs(values.backoff);
  if (backoffMs === undefined) return { ok: false, message: `--backoff must be a duration such as 100ms, 1s, 30s, got '${values.backoff}'` };
  const dryRun = values["dry-run"];
  const budgetUsd = dollars(values["budget-usd"]);
  if (budgetUsd === null) return { ok: false, message: `--budget-usd must be a number of US dollars from 0, such as 25, got '${values["budget-usd"] ?? ""}'` };
  const itemUsd = dollars(values["item-usd"]);
  if (itemUsd === null || itemUsd === 0) return { ok: false, message: `--item-usd must be a number of US dollars above 0, such as 2.50, got '${values["item-usd"] ?? ""}'` };
  // --agent NAME: a preset; `--agent command` is --run CMD by another name.
  const agent = values.agent === undefined ? undefined : agentByName(values.agent);
  if (values.agent !== undefined && agent === undefined) return { ok: false, message: `--agent must be one of ${AGENT_NAMES.join(", ")}, got '${values.agent}'` };
  const preset = agent === undefined || agent === "command" ? undefined : PRESETS[agent];
  if (preset !== undefined && (values.run !== undefined || dryRun)) return { ok: false, message: `--agent ${agent ?? ""} runs the agent itself: give it without --run or --dry-run` };
  if (agent === "command" && values.run === undefined) return { ok: false, message: "--agent command needs --run CMD (the command to run)" };
  if (preset === undefined && dryRun === (values.run !== undefined)) return { ok: false, message: dryRun ? "give --run CMD or --dry-run, not both" : "give --run CMD (a worker command), --agent NAME or --dry-run" };
  const briefsDir = resolve(cwd, values.briefs);
  if (!(await isDirectory(briefsDir))) return { ok: false, message: `--briefs: no folder at ${values.briefs}` };
  const stateDir = resolve(cwd, values.state);
  return { ok: true, args: { pool, attempts, policy, lease, backoffMs, dryRun, budgetUsd, itemUsd, agent, preset, run: values.run, briefsDir, stateDir, holder: values.holder, quiet: values.quiet, json: values.json } };
}

/** A dollar amount from a flag: undefined when absent, null when not a finite number from 0. */
function dollars(text: string | undefined): number | undefined | null {
  if (text === undefined) return undefined;
  const trimmed = text.trim().replace(/^\$/, "");
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isFinite(n) && n <= 1_000_000 ? n : null;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
