/**
 * Git objects in the fake. Trees are kept as flat path → content maps, but every sha is the one git
 * itself computes (blobs, nested trees with their modes, commits in git's text format), so a test
 * can rebuild any commit as a real repository whose `git rev-parse HEAD` is the fake's sha.
 */
import { createHash } from "node:crypto";
import { isoTime } from "./clock.js";
import type { CommitRecord, FakeState, RepoState } from "./state.js";

/** Git's well-known empty tree; the fake accepts it in every repository. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** File modes git records: a regular file and an executable one. */
export type FileMode = "100644" | "100755";

/** One level of a tree: files and sub-directories by name. */
interface TreeNode {
  files: Map<string, { content: string; mode: FileMode }>;
  dirs: Map<string, TreeNode>;
}

/** Git's order of tree entries: by name bytes, a directory compared as if its name ended in `/`. */
function entryKey(name: string, isDir: boolean): Buffer {
  return Buffer.from(isDir ? `${name}/` : name, "utf8");
}

/** The raw bytes of one tree object's body (`<mode> <name>\0<20-byte sha>` per entry). */
function treeBody(node: TreeNode): Buffer {
  const entries: Array<{ key: Buffer; bytes: Buffer }> = [];
  for (const [name, file] of node.files) {
    entries.push({ key: entryKey(name, false), bytes: Buffer.concat([Buffer.from(`${file.mode} ${name}\0`, "utf8"), Buffer.from(blobSha(file.content), "hex")]) });
  }
  for (const [name, dir] of node.dirs) {
    entries.push({ key: entryKey(name, true), bytes: Buffer.concat([Buffer.from(`40000 ${name}\0`, "utf8"), Buffer.from(treeObject(dir).sha, "hex")]) });
  }
  entries.sort((a, b) => Buffer.compare(a.key, b.key));
  return Buffer.concat(entries.map((e) => e.bytes));
}

function treeObject(node: TreeNode): { sha: string; body: Buffer } {
  const body = treeBody(node);
  return { sha: objectSha("tree", body), body };
}

/** `sha1("<type> <size>\0<body>")`: the id git gives an object. */
export function objectSha(type: "blob" | "tree" | "commit", body: Buffer): string {
  return createHash("sha1").update(Buffer.concat([Buffer.from(`${type} ${body.length}\0`, "utf8"), body])).digest("hex");
}

/** The nested tree of flat paths, as git stores it. */
export function nestTree(files: ReadonlyMap<string, string>, executables: ReadonlySet<string> = new Set()): TreeNode {
  const root: TreeNode = { files: new Map(), dirs: new Map() };
  for (const [path, content] of files) {
    const parts = path.split("/");
    const name = parts.pop() as string;
    let node = root;
    for (const part of parts) {
      let next = node.dirs.get(part);
      if (next === undefined) {
        next = { files: new Map(), dirs: new Map() };
        node.dirs.set(part, next);
      }
      node = next;
    }
    node.files.set(name, { content, mode: executables.has(path) ? "100755" : "100644" });
  }
  return root;
}

/** Every tree object of a nested tree, root first: what a checkout writes into `.git/objects`. */
export function treeObjects(files: ReadonlyMap<string, string>, executables: ReadonlySet<string> = new Set()): Array<{ sha: string; body: Buffer }> {
  const out: Array<{ sha: string; body: Buffer }> = [];
  const walk = (node: TreeNode): void => {
    out.push(treeObject(node));
    for (const dir of node.dirs.values()) walk(dir);
  };
  walk(nestTree(files, executables));
  return out;
}

/** Stores a file tree (paths marked executable get mode 100755) and returns git's sha for it. */
export function putTree(repo: RepoState, files: ReadonlyMap<string, string>, executables: ReadonlySet<string> = new Set()): string {
  if (files.size === 0) {
    repo.trees.set(EMPTY_TREE, new Map());
    return EMPTY_TREE;
  }
  const kept = new Set([...executables].filter((p) => files.has(p)));
  const sha = treeObject(nestTree(files, kept)).sha;
  if (!repo.trees.has(sha)) repo.trees.set(sha, new Map(files));
  if (kept.size > 0) repo.executables.set(sha, kept);
  return sha;
}

/** Paths of a tree whose mode is 100755. */
export function executablesOf(repo: RepoState, tree: string): ReadonlySet<string> {
  return repo.executables.get(tree) ?? new Set();
}

/** The sha of a blob, as `contents` reports it. */
export function blobSha(content: string): string {
  return objectSha("blob", Buffer.from(content, "utf8"));
}

export interface NewCommit {
  tree: string;
  parents: string[];
  message: string;
  author?: { name: string; email: string; date?: string };
  committer?: { name: string; email: string; date?: string };
}

/** Git's `Name <email> <unix seconds> +0000` for a person and an ISO date. */
function signature(person: { name: string; email: string; date: string }): string {
  return `${person.name} <${person.email}> ${Math.floor(Date.parse(person.date) / 1000)} +0000`;
}

/** The body of a commit object exactly as git hashes it (dates in UTC, whole seconds). */
export function commitBody(commit: Pick<CommitRecord, "tree" | "parents" | "author" | "committer" | "message">): Buffer {
  const text = [`tree ${commit.tree}`, ...commit.parents.map((p) => `parent ${p}`), `author ${signature(commit.author)}`, `committer ${signature(commit.committer)}`, "", commit.message].join("\n");
  return Buffer.from(text, "utf8");
}

/** An ISO date cut to whole seconds in UTC, as git keeps it. */
function wholeSeconds(date: string): string {
  const ms = Date.parse(date);
  if (Number.isNaN(ms)) throw new Error(`fake-github: not a date: ${date}`);
  return isoTime(Math.floor(ms / 1000) * 1000);
}

/** Stores a commit; its sha is git's for the same tree, parents, people, dates and message. */
export function putCommit(state: FakeState, repo: RepoState, input: NewCommit): CommitRecord {
  const date = isoTime(state.clock.now());
  const author = { name: input.author?.name ?? "Fake", email: input.author?.email ?? "fake@example.com", date: wholeSeconds(input.author?.date ?? date) };
  const committer = input.committer === undefined ? author : { ...input.committer, date: wholeSeconds(input.committer.date ?? date) };
  const fields = { tree: input.tree, parents: [...input.parents], message: input.message, author, committer };
  const sha = objectSha("commit", commitBody(fields));
  const commit: CommitRecord = { sha, ...fields };
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
