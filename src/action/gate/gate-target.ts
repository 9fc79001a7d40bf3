import type { ActionEvent } from "../action-io.js";

/** The pull request and the exact commit one gate run judges, read from its event; or why there is none. */
export type GateTarget = { readonly ok: true; readonly number: number; readonly headSha: string; readonly dispatchItem?: string; readonly dispatch?: DispatchFacts; readonly acceptanceRun?: RunFacts } | { readonly ok: false; readonly reason: string };

/** Who dispatched the gate by hand, and the acceptance run they named (checked before anything counts). */
export interface DispatchFacts {
  readonly sender: string;
  readonly acceptanceRun: number | undefined;
}

/** The acceptance run a workflow_run event describes (its own fields, from GitHub). */
export interface RunFacts {
  readonly path: string;
  readonly event: string;
  /** The branch the run's commit came from (`head_branch`) and its repository's `owner/name` (`head_repository`, a fork's for a fork's PR). */
  readonly headBranch?: string;
  readonly headRepo?: string;
}

const SHA = /^[0-9a-f]{40}$/;
type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);

/**
 * The event's head SHA, never the live PR's: a run started for commit A judges A and posts on A,
 * even if B was pushed since (B's own run judges B). Triggers:
 * - `pull_request` / `pull_request_target`: `pull_request.number` and `pull_request.head.sha`;
 * - `workflow_run` (a trusted job after the untrusted one): `head_sha` and the one pull request
 *   listed with that head;
 * - `workflow_dispatch`: inputs `pull-request`, `head-sha` and optionally `item` (Bosun's record).
 */
export function gateTarget(event: ActionEvent): GateTarget {
  const p = event.payload;
  if (event.name === "pull_request" || event.name === "pull_request_target") {
    const pr = obj(p["pull_request"]);
    const sha = obj(pr?.["head"])?.["sha"];
    if (typeof pr?.["number"] !== "number") return { ok: false, reason: `the '${event.name}' event has no pull_request.number` };
    if (typeof sha !== "string" || !SHA.test(sha)) return { ok: false, reason: `the '${event.name}' event has no pull_request.head.sha: the gate judges exactly the commit its event names` };
    return { ok: true, number: pr["number"], headSha: sha };
  }
  if (event.name === "workflow_run") {
    const run = obj(p["workflow_run"]);
    const sha = run?.["head_sha"];
    if (typeof sha !== "string" || !SHA.test(sha)) return { ok: false, reason: "the 'workflow_run' event has no workflow_run.head_sha" };
    const pulls = (Array.isArray(run?.["pull_requests"]) ? (run["pull_requests"] as unknown[]) : []).map(obj).filter((x) => x !== undefined && obj(x["head"])?.["sha"] === sha && typeof x["number"] === "number");
    const [only, ...more] = pulls;
    if (only === undefined || more.length > 0) return { ok: false, reason: `the 'workflow_run' event lists ${pulls.length} pull requests with head ${sha.slice(0, 12)} (a fork's run lists none): dispatch the gate with inputs pull-request and head-sha instead` };
    const headBranch = run?.["head_branch"];
    const headRepo = obj(run?.["head_repository"])?.["full_name"];
    const acceptanceRun: RunFacts = { path: String(run?.["path"] ?? ""), event: String(run?.["event"] ?? ""), ...(typeof headBranch === "string" ? { headBranch } : {}), ...(typeof headRepo === "string" ? { headRepo } : {}) };
    return { ok: true, number: only["number"] as number, headSha: sha, acceptanceRun };
  }
  if (event.name === "workflow_dispatch") {
    const inputs = obj(p["inputs"]) ?? {};
    const number = Number(inputs["pull-request"]);
    const sha = String(inputs["head-sha"] ?? "").trim().toLowerCase();
    if (!Number.isInteger(number) || number <= 0) return { ok: false, reason: "the 'workflow_dispatch' run has no input pull-request (a pull request number)" };
    if (!SHA.test(sha)) return { ok: false, reason: "the 'workflow_dispatch' run has no input head-sha (the 40-hex commit to judge)" };
    const item = inputs["item"];
    const sender = obj(p["sender"])?.["login"];
    const runId = Number(inputs["acceptance-run"]);
    const dispatch: DispatchFacts = { sender: typeof sender === "string" ? sender : "", acceptanceRun: Number.isInteger(runId) && runId > 0 ? runId : undefined };
    return { ok: true, number, headSha: sha, dispatch, ...(typeof item === "string" && item.trim() !== "" ? { dispatchItem: item.trim() } : {}) };
  }
  return { ok: false, reason: `the gate runs on pull_request_target, pull_request, workflow_run or workflow_dispatch events; this is '${event.name}'` };
}
