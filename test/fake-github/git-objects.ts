/** Git objects in the fake: content-addressed commits over flat file trees. */
import { createHash } from "node:crypto";
import { isoTime } from "./clock.js";
import type { CommitRecord, FakeState, RepoState } from "./state.js";

/** Git's well-known empty tree; the fake accepts it in every repository. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/** Stores a file tree and returns its sha (a hash of its sorted paths and contents). */
export function putTree(repo: RepoState, files: ReadonlyMap<string, string>): string {
  if (files.size === 0) {
    repo.trees.set(EMPTY_TREE, new Map());
    return EMPTY_TREE;
  }
  const entries = [...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const sha = sha1(`tree\0${entries.map(([p, c]) => `${p}\0${sha1(c)}`).join("\n")}`);
  if (!repo.trees.has(sha)) repo.trees.set(sha, new Map(files));
  return sha;
}

/** The sha of a blob, as `contents` reports it. */
export function blobSha(content: string): string {
  return sha1(`blob ${Buffer.byteLength(content)}\0${content}`);
}

export interface NewCommit {
  tree: string;
  parents: string[];
  message: string;
  author?: { name: string; email: string; date?: string };
  committer?: { name: string; email: string; date?: string };
}

/** Stores a commit; the sha covers tree, parents, message, author and time, like git's. */
export function putCommit(state: FakeState, repo: RepoState, input: NewCommit): CommitRecord {
  const date = isoTime(state.clock.now());
  const author = { name: input.author?.name ?? "Fake", email: input.author?.email ?? "fake@example.com", date: input.author?.date ?? date };
  const committer = input.committer === undefined ? author : { ...input.committer, date: input.committer.date ?? date };
  const text = [
    `tree ${input.tree}`,
    ...input.parents.map((p) => `parent ${p}`),
    `author ${author.name} <${author.email}> ${author.date}`,
    `committer ${committer.name} <${committer.email}> ${committer.date}`,
    "",
    input.message,
  ].join("\n");
  const sha = sha1(`commit ${Buffer.byteLength(text)}\0${text}`);
  const commit: CommitRecord = { sha, tree: input.tree, parents: [...input.parents], message: input.message, author, committer };
  if (!repo.commits.has(sha)) repo.commits.set(sha, commit);
  return repo.commits.get(sha) ?? commit;
}

/** True when `ancestor` is `descendant` or reachable from it through parents. */
export function isAncestor(repo: RepoState, ancestor: string, descendant: string): boolean {
  const seen = new Set<string>();
  const stack = [descendant];
  while (stack.length > 0) {
    const sha = stack.pop() as string;
    if (sha === ancestor) return true;
    if (seen.has(sha)) continue;
    seen.add(sha);
    stack.push(...(repo.commits.get(sha)?.parents ?? []));
  }
  return false;
}

/**
 * A commit sha for a ref as the API accepts one: a full sha, `heads/x`, `refs/heads/x`, a branch
 * name or a tag name. Undefined when nothing matches.
 */
export function resolveCommitish(repo: RepoState, ref: string): string | undefined {
  if (/^[0-9a-f]{40}$/.test(ref) && repo.commits.has(ref)) return ref;
  const candidates = ref.startsWith("refs/") ? [ref] : [`refs/${ref}`, `refs/heads/${ref}`, `refs/tags/${ref}`];
  for (const name of candidates) {
    const sha = repo.refs.get(name);
    if (sha !== undefined) return sha;
  }
  if (/^[0-9a-f]{7,39}$/.test(ref)) {
    const matches = [...repo.commits.keys()].filter((sha) => sha.startsWith(ref));
    if (matches.length === 1) return matches[0];
  }
  return undefined;
}

/** The file tree at a commit-ish, or undefined when the ref is unknown. */
export function filesAt(repo: RepoState, ref: string): ReadonlyMap<string, string> | undefined {
  const sha = resolveCommitish(repo, ref);
  if (sha === undefined) return undefined;
  const commit = repo.commits.get(sha);
  return commit === undefined ? undefined : (repo.trees.get(commit.tree) ?? new Map());
}
