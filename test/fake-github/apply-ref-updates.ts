/**
 * GitHub's `updateRefs` on one repository: every update is checked against the refs as they are,
 * then all of them apply, or none does. The fake handles one request at a time, so check-then-apply
 * is atomic against every other request.
 */
import type { RefChange } from "./emit-ref-change.js";
import { isAncestor } from "./git-objects.js";
import type { RepoState } from "./state.js";

/** The all-zero object id: as `beforeOid`, "must not exist"; as `afterOid`, "delete". */
export const NULL_OID = "0".repeat(40);

/** One `RefUpdate` of the mutation's input, coerced (`force` defaulted, oids lower-case). */
export interface RefUpdate {
  name: string;
  /** Null: no expectation about the current value. */
  beforeOid: string | null;
  afterOid: string;
  force: boolean;
}

/** Why the update of one ref would be refused, or undefined when it may apply. */
function problemOf(repo: RepoState, update: RefUpdate): string | undefined {
  const { name, beforeOid, afterOid, force } = update;
  const current = repo.refs.get(name);
  // The rule REST `POST git/refs` applies to a new ref's name.
  if (!name.startsWith("refs/") || name.split("/").length < 3) return `${name}: not a valid ref name (it must start with "refs/" and have at least two slashes)`;
  if (beforeOid === NULL_OID && current !== undefined) return `${name}: already exists at ${current}, but beforeOid ${NULL_OID} says it must not exist`;
  if (beforeOid !== null && beforeOid !== NULL_OID && current === undefined) return `${name}: does not exist, but beforeOid is ${beforeOid}`;
  if (beforeOid !== null && beforeOid !== NULL_OID && current !== beforeOid) return `${name}: is at ${current ?? ""}, not at beforeOid ${beforeOid}`;
  if (afterOid === NULL_OID) return current === undefined ? `${name}: cannot be deleted, it does not exist` : undefined;
  if (!repo.commits.has(afterOid)) return `${name}: afterOid ${afterOid} is not a commit in this repository`;
  if (!force && current !== undefined && !isAncestor(repo, current, afterOid)) return `${name}: moving it from ${current} to ${afterOid} is not a fast forward (force is false)`;
  return undefined;
}

/** Every reason the batch would be refused, one per refused ref; [] when all may apply. */
export function refUpdateProblems(repo: RepoState, updates: readonly RefUpdate[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const update of updates) {
    if (seen.has(update.name)) problems.push(`${update.name}: appears more than once`);
    else {
      const problem = problemOf(repo, update);
      if (problem !== undefined) problems.push(problem);
    }
    seen.add(update.name);
  }
  return problems;
}

/** Applies a batch that `refUpdateProblems` found no problem with; returns what changed, in order. */
export function applyRefUpdates(repo: RepoState, updates: readonly RefUpdate[]): RefChange[] {
  return updates.map(({ name, afterOid, force }) => {
    const before = repo.refs.get(name);
    if (afterOid === NULL_OID) repo.refs.delete(name);
    else repo.refs.set(name, afterOid);
    const after = afterOid === NULL_OID ? undefined : afterOid;
    const forced = force && before !== undefined && after !== undefined && !isAncestor(repo, before, after);
    return { ref: name, before, after, forced };
  });
}
