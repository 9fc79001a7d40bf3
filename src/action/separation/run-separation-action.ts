import type { ActionIo } from "../action-io.js";
import { findPullHints } from "../../core/gate/find-brief-link.js";
import { namedIssues } from "../../core/gate/resolve-trusted-item.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";
import { separationCandidates } from "../../core/separation/separation-candidates.js";
import type { PermissionAnswer, Requester, SeparationFacts, SeparationPolicy } from "../../core/separation/separation-facts.js";
import type { SeparationVerdict } from "../../core/separation/separation-verdict.js";
import { separationVerdict } from "../../core/separation/separation-verdict.js";
import { DEFAULT_CLAIM_PREFIX, findDispatchedItem } from "../gate/find-dispatched-item.js";
import { unjudgedBase } from "../gate/judged-base.js";
import { listInput } from "../list-input.js";
import type { RepoReader, SeparationReader, StatusWriter } from "../../ports/separation-github.js";

/** The commit status branch protection requires. */
export const SEPARATION_CONTEXT = "bosun/separation";

/** Issues whose requesters are read (two requests each); a PR that names more is refused. */
const MAX_NAMED_ISSUES = 10;

/** GitHub lists at most 250 commits of a pull request. */
const MAX_LISTED_COMMITS = 250;

export interface SeparationActionDeps {
  readonly github: SeparationReader & RepoReader & StatusWriter;
  readonly secrets: readonly string[];
}

/**
 * The `separation` mode: counts independent human approvals of the current head and posts the
 * commit status `bosun/separation`. Runs from the base branch's workflow and never checks out PR
 * code. Fails closed: any API error leaves the status `error`, never success.
 */
export async function runSeparationAction(io: ActionIo, deps: SeparationActionDeps): Promise<SeparationVerdict | undefined> {
  const payload = io.event.payload as { pull_request?: { number?: number }; issue?: { number?: number; pull_request?: unknown } };
  const number = payload.pull_request?.number ?? (payload.issue?.pull_request === undefined ? undefined : payload.issue.number);
  if (typeof number !== "number") {
    io.log.info(`bosun separation: '${io.event.name}' is not about a pull request; nothing to do`);
    return undefined;
  }
  const { github } = deps;
  const pull = await github.pull(number);
  const runUrl = `${io.event.serverUrl}/${io.event.repo.owner}/${io.event.repo.repo}/actions/runs/${io.event.runId}`;
  let verdict: SeparationVerdict;
  try {
    const seen = { key: "" };
    verdict = await decide(io, github, pull, seen);
    // Right before posting, look again: a review dismissed or a comment edited while this run read
    // the rest must not be posted as if it still stood. Changed → decide again on what is there now.
    for (let attempt = 0; attempt < 2 && (await approvalsMoved(github, pull.number, seen)); attempt++) verdict = await decide(io, github, pull, seen);
  } catch (err) {
    const message = redactSecrets(err instanceof Error ? err.message : String(err), deps.secrets);
    verdict = { state: "error", description: `could not read the pull request: ${message}`.slice(0, 140), counted: [], notCounted: [], reasons: [message] };
  }
  await github.setStatus(pull.headSha, { state: verdict.state, context: SEPARATION_CONTEXT, description: verdict.description, targetUrl: runUrl });
  await io.summary(render(verdict, number, pull.headSha));
  io.setOutput("verdict", verdict.state === "success" ? "pass" : verdict.state === "error" ? "could-not-check" : "fail");
  io.setOutput("report", JSON.stringify(verdict));
  if (verdict.state === "error") io.setFailed(`bosun separation: ${verdict.description}`);
  return verdict;
}

const approvalsKey = (reviews: unknown, comments: unknown): string => JSON.stringify([reviews, comments]);

/** Whether the reviews or comments changed since `seen` was taken. */
async function approvalsMoved(github: SeparationActionDeps["github"], number: number, seen: { key: string }): Promise<boolean> {
  const [reviews, comments] = await Promise.all([github.reviews(number), github.comments(number)]);
  return approvalsKey(reviews, comments) !== seen.key;
}

async function decide(io: ActionIo, github: SeparationActionDeps["github"], pull: Awaited<ReturnType<SeparationReader["pull"]>>, seen: { key: string }): Promise<SeparationVerdict> {
  const badBase = unjudgedBase(pull.baseRef, pull.defaultBranch, listInput(io, "protected-branches"));
  if (badBase !== undefined) return { state: "error", description: "could not check: the pull request's base is not a protected branch", counted: [], notCounted: [], reasons: [badBase] };
  const [commits, reviews, comments, open, pushes] = await Promise.all([github.commits(pull.number), github.reviews(pull.number), github.comments(pull.number), github.openPulls(), pull.headRepo === undefined ? undefined : github.pushes(pull.headRepo, pull.headRef)]);
  seen.key = approvalsKey(reviews, comments);
  const evidence = { headRef: pull.headRef, hints: findPullHints(pull.body, pull.labels) };
  const item = await findDispatchedItem(github, evidence, { prefix: io.input("claim-ref-prefix").trim() || DEFAULT_CLAIM_PREFIX, botLogin: io.input("bot-login").trim() || "bosun[bot]" });
  const requesters = await requestersOf(github, namedIssues(evidence), io.input("approval-label").trim() || "bosun:ready");
  const protectedBases = listInput(io, "protected-branches");
  const facts: SeparationFacts = {
    headSha: pull.headSha,
    author: pull.author,
    authorIsBot: pull.authorIsBot,
    requesters,
    commits,
    pushes,
    commitsComplete: pull.commitCount <= MAX_LISTED_COMMITS && commits.length === pull.commitCount,
    reviews,
    comments,
    dispatchedByBosun: pull.headRef.startsWith("bosun/") || pull.labels.includes("bosun:claimed") || (item.ok && item.kind === "issue" && item.claim !== undefined),
    siblings: open.filter((p) => p.number !== pull.number && p.headSha === pull.headSha && (protectedBases.length === 0 || protectedBases.includes(p.baseRef))).map((p) => p.number),
  };
  const required = Number(io.input("required-approvals").trim() || "1");
  const policy: SeparationPolicy = { agents: listInput(io, "agent-identities"), excluded: listInput(io, "excluded-approvers"), required: Number.isInteger(required) && required > 0 ? required : 1, humans: listInput(io, "human-authors") };
  const analysis = separationCandidates(facts, policy);
  const permissions = new Map<string, PermissionAnswer>();
  await Promise.all(analysis.candidates.map(async (c) => permissions.set(c.login, await github.permission(c.login))));
  return separationVerdict(analysis, permissions, policy.required);
}

/**
 * Who asked for the work: each named issue's author and whoever added the approval label to it
 * (from its event list). Every issue anything names counts — Bosun's item and the PR's links alike —
 * so linking another issue can add people who may not approve, never drop the real requester.
 */
async function requestersOf(github: SeparationActionDeps["github"], issues: readonly number[], approvalLabel: string): Promise<Requester[]> {
  // Reading only some would let a long list hide the one that matters: refuse instead.
  if (issues.length > MAX_NAMED_ISSUES) throw new Error(`the pull request links ${issues.length} issues; at most ${MAX_NAMED_ISSUES} are read for requesters`);
  const out: Requester[] = [];
  for (const n of issues) {
    const author = await github.issueAuthor(n);
    if (author === undefined) continue;
    out.push({ login: author, why: `requested the work (opened #${n})` });
    for (const login of await github.issueLabelers(n, approvalLabel)) out.push({ login, why: `approved the work (added ${approvalLabel} to #${n})` });
  }
  return out;
}

function render(v: SeparationVerdict, number: number, sha: string): string {
  const rows = [...v.counted.map((login) => `| ${login} | counted | independent approval with write access |`), ...v.notCounted.map((n) => `| ${n.login} | not counted | ${n.why.replace(/\|/g, "\\|")} |`)];
  return [`### bosun/separation: ${v.state}`, "", `#${number} at ${sha.slice(0, 12)}: ${v.description}`, "", ...v.reasons.map((r) => `- ${r}`), "", "| who | | why |", "|---|---|---|", ...rows, ""].join("\n");
}
