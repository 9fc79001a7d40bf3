import type { ActionIo } from "./action-io.js";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const SHA = /^[0-9a-f]{40}$/;

/** The open pull requests whose head is a commit, as GitHub lists them (`GET /repos/{o}/{r}/commits/{sha}/pulls`). */
export type PullsOfCommit = (sha: string) => Promise<{ number: number; headSha: string; state: string }[]>;

/**
 * A `workflow_run` event relayed from a run the PR controls (a `pull_request_review` workflow that
 * does nothing but finish) turned into the pull request it is about, as a `pull_request`-shaped
 * payload. Only GitHub's own fields are used: the run's `head_sha`, and the pull requests the API
 * lists for that commit (a fork's run lists none in the event). Other events pass unchanged.
 * Returns the io to use, or a reason there is no pull request to judge.
 */
export async function relayedPullRequest(io: ActionIo, pullsOf: PullsOfCommit): Promise<{ ok: true; io: ActionIo } | { ok: false; reason: string }> {
  if (io.event.name !== "workflow_run") return { ok: true, io };
  const run = obj(io.event.payload["workflow_run"]);
  const sha = typeof run?.["head_sha"] === "string" ? run["head_sha"] : "";
  if (!SHA.test(sha)) return { ok: false, reason: "the 'workflow_run' event has no workflow_run.head_sha" };
  const listed = (Array.isArray(run?.["pull_requests"]) ? (run["pull_requests"] as unknown[]) : []).map(obj).filter((p): p is Obj => p !== undefined && typeof p["number"] === "number" && obj(p["head"])?.["sha"] === sha);
  const numbers = listed.length > 0 ? listed.map((p) => p["number"] as number) : (await pullsOf(sha)).filter((p) => p.state === "open" && p.headSha === sha).map((p) => p.number);
  const [first] = [...new Set(numbers)].sort((a, b) => a - b);
  if (first === undefined) return { ok: false, reason: `no open pull request has head ${sha.slice(0, 12)} (the relayed run's commit)` };
  // With several, the first is judged; separation itself refuses success while a sibling shares the head.
  const payload = { ...io.event.payload, pull_request: { number: first, head: { sha } } };
  return { ok: true, io: { ...io, event: { ...io.event, payload } } };
}

/**
 * A `workflow_run` event whose `pull_requests` list is empty (GitHub lists none for a fork's run)
 * with that list filled from the API: the open pull requests whose head is the run's `head_sha`.
 * Other events, and runs that list their pull requests, pass unchanged.
 */
export async function withRunPullRequests(io: ActionIo, pullsOf: PullsOfCommit): Promise<ActionIo> {
  if (io.event.name !== "workflow_run") return io;
  const run = obj(io.event.payload["workflow_run"]);
  const sha = typeof run?.["head_sha"] === "string" ? run["head_sha"] : "";
  const listed = Array.isArray(run?.["pull_requests"]) ? (run["pull_requests"] as unknown[]) : [];
  if (run === undefined || !SHA.test(sha) || listed.length > 0) return io;
  const found = (await pullsOf(sha)).filter((p) => p.state === "open" && p.headSha === sha).map((p) => ({ number: p.number, head: { sha } }));
  return { ...io, event: { ...io.event, payload: { ...io.event.payload, workflow_run: { ...run, pull_requests: found } } } };
}
