import { coAuthors, DEFAULT_AGENTS, identityKeys, isBotIdentity, normalizeLogin } from "./identity.js";
import { parseApproveCommand } from "./parse-approve-command.js";
import { pusherKeys, pushersOf } from "./pushers-of.js";
import type { SeparationFacts, SeparationPolicy } from "./separation-facts.js";

/** An approval on the current head from someone no rule excludes; write access is checked next. */
export interface Candidate {
  readonly login: string;
  readonly via: "review" | "/approve";
}

/** Someone who approved (or tried to) and does not count, and why. */
export interface NotCounted {
  readonly login: string;
  readonly why: string;
}

export interface CandidateAnalysis {
  readonly agentWork: readonly string[];
  readonly candidates: readonly Candidate[];
  readonly notCounted: readonly NotCounted[];
  /** Reasons the status can never be success as things stand (incomplete commits, a sibling PR). */
  readonly blockers: readonly string[];
  /** Facts that could not be read whole (GitHub's record of pushes): nobody can be ruled out, so the status is could-not-check. */
  readonly unknowns: readonly string[];
  /** The author is on the explicit `human-authors` list: only then may work with no agent mark skip approvals. */
  readonly humanAuthor?: boolean;
}

const WRITE_ASSOCIATIONS = new Set(["OWNER", "MEMBER", "COLLABORATOR"]);

type Decision = { kind: "approve"; sha: string; via: "review" | "/approve"; association: string } | { kind: "reject"; what: string };

/**
 * Phase one of the separation rule: which approvals of the current head could count. The latest
 * decision per login wins (a later CHANGES_REQUESTED or dismissal cancels an approval; COMMENTED
 * does not); the PR author, everyone who pushed to the head branch (GitHub's record, as its "most
 * recent reviewable push" rule reads it), commit authors, committers and co-authors, agent
 * identities, the requester and excluded approvers never count; author association is only a
 * cheap pre-filter.
 */
export function separationCandidates(facts: SeparationFacts, policy: SeparationPolicy): CandidateAnalysis {
  // Fail closed: bots and Copilot's accounts are agents whether or not anyone configured them.
  const agents = new Set([...DEFAULT_AGENTS, ...policy.agents.map((a) => (a.includes("@") ? a.trim().toLowerCase() : normalizeLogin(a)))]);
  const contributors = new Set<string>();
  const agentWork: string[] = [];
  const markBot = (raw: string | null | undefined, isBot = false): void => {
    if (raw !== null && raw !== undefined && (isBot || isBotIdentity(raw))) for (const key of identityKeys(raw.includes("@") ? { email: raw } : { login: raw })) agents.add(key);
  };
  markBot(facts.author, facts.authorIsBot === true);
  for (const r of facts.reviews) markBot(r.login, r.isBot === true);
  for (const c of facts.comments) markBot(c.login);
  if (agents.has(normalizeLogin(facts.author))) agentWork.push(`opened by ${facts.author}`);
  if (facts.dispatchedByBosun) agentWork.push("dispatched by Bosun");
  // Commit metadata is whatever the pusher wrote; who pushed is what GitHub itself recorded.
  const pushers = pushersOf(facts.pushes, facts.headSha);
  const pushed = pusherKeys(pushers);
  for (const login of pushers.ok ? pushers.logins : []) {
    markBot(login);
    if (agents.has(normalizeLogin(login))) agentWork.push(`pushed by ${login}`);
  }
  for (const commit of facts.commits) {
    const people = [commit.author, commit.committer, ...coAuthors(commit.message).map((c) => ({ email: c.email, name: c.name }))];
    for (const person of people) {
      for (const raw of ["login" in person ? person.login : undefined, person.email, person.name]) markBot(raw);
      for (const key of identityKeys(person)) {
        contributors.add(key);
        if (agents.has(key)) agentWork.push(`commit ${commit.sha.slice(0, 7)} by ${key}`);
      }
    }
  }

  const latest = new Map<string, { login: string; decision: Decision }>();
  const notCounted: NotCounted[] = [];
  const events = [
    ...facts.reviews.map((r, i) => ({ at: r.at, order: i, login: r.login, review: r })),
    ...facts.comments.map((c, i) => ({ at: c.at, order: facts.reviews.length + i, login: c.login, comment: c })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.order - b.order));
  for (const event of events) {
    const key = normalizeLogin(event.login);
    if ("review" in event && event.review !== undefined) {
      const r = event.review;
      if (r.state === "APPROVED") latest.set(key, { login: r.login, decision: { kind: "approve", sha: r.commitId.toLowerCase(), via: "review", association: r.association } });
      else if (r.state === "CHANGES_REQUESTED" || r.state === "DISMISSED") latest.set(key, { login: r.login, decision: { kind: "reject", what: r.state === "DISMISSED" ? "approval dismissed" : "requested changes after approving" } });
      if (r.state === "APPROVED" && agents.has(key)) agentWork.push(`approving review by ${r.login}`);
    } else if ("comment" in event && event.comment !== undefined) {
      const c = event.comment;
      // Anyone with write access can edit anyone's comment (and GitHub keeps the original author):
      // an edited comment says nothing about what its author approved.
      if (c.updatedAt !== undefined && c.updatedAt !== "" && c.updatedAt !== c.at) {
        if (parseApproveCommand(c.body).kind !== "none") notCounted.push({ login: event.login, why: `its /approve comment was edited after it was written (${c.at} → ${c.updatedAt}): edited comments never count; approve again` });
        continue;
      }
      const command = parseApproveCommand(c.body);
      if (command.kind === "approve") latest.set(key, { login: event.login, decision: { kind: "approve", sha: command.sha, via: "/approve", association: event.comment.association } });
      else if (command.kind === "malformed") notCounted.push({ login: event.login, why: `malformed /approve ("${command.line}"): needs /approve <the head's full 40-hex SHA>` });
    }
  }

  const excluded = new Set(policy.excluded.map(normalizeLogin));
  const requesters = new Map<string, string>();
  for (const r of facts.requesters) if (!requesters.has(normalizeLogin(r.login))) requesters.set(normalizeLogin(r.login), r.why);
  const head = facts.headSha.toLowerCase();
  const candidates: Candidate[] = [];
  for (const [key, { login, decision }] of latest) {
    const why =
      decision.kind === "reject" ? decision.what
      : decision.sha !== head ? `approved an older head ${decision.sha.slice(0, 12)}, not ${head.slice(0, 12)}`
      : key === normalizeLogin(facts.author) ? "is the pull request's author"
      : agents.has(key) ? "is an agent identity"
      : pushed.has(key) ? `pushed to the head branch ${facts.pushes?.branch ?? ""} (GitHub's record of pushes)`
      : contributors.has(key) ? "authored, committed or co-authored a commit"
      : requesters.has(key) ? (requesters.get(key) ?? "requested the work")
      : excluded.has(key) ? "is an excluded approver"
      : !WRITE_ASSOCIATIONS.has(decision.association.toUpperCase()) ? `has no write access (association ${decision.association || "NONE"})`
      : undefined;
    if (why === undefined && decision.kind === "approve") candidates.push({ login, via: decision.via });
    else notCounted.push({ login, why: why ?? "did not approve" });
  }

  const blockers: string[] = [];
  if (!facts.commitsComplete) blockers.push("the commit list could not be read whole (GitHub lists at most 250 commits), so co-authors cannot be ruled out");
  for (const n of facts.siblings) blockers.push(`open pull request #${n} has the same head SHA: a status on it would count for both`);
  const humanAuthor = (policy.humans ?? []).some((h) => normalizeLogin(h) === normalizeLogin(facts.author)) && !agents.has(normalizeLogin(facts.author));
  const unknowns = pushers.ok ? [] : [pushers.why];
  return { agentWork: [...new Set(agentWork)], candidates, notCounted, blockers, unknowns, humanAuthor };
}
