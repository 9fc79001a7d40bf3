import type { Octokit } from "@octokit/rest";
import type { FileChange } from "../local/working-tree-changes.js";

export interface ItemPullInput {
  readonly owner: string;
  readonly repo: string;
  readonly issue: number;
  readonly epoch: number;
  /** The branch the pull request is opened into. */
  readonly base: string;
  /** The commit the agent's checkout started from (GitHub's copy of it). */
  readonly baseSha: string;
  /** Bosun's branch for the item (`itemBranch`): the same at every epoch. */
  readonly branch: string;
  readonly title: string;
  readonly briefHash: string;
  readonly changes: readonly FileChange[];
}

export interface ItemPull {
  readonly number: number;
  readonly url: string;
  readonly branch: string;
  readonly commit: string;
  /** False when an open pull request for the branch already existed (a later epoch's retry). */
  readonly created: boolean;
}

const statusOf = (err: unknown): number | undefined => (err as { status?: number }).status;

/** The body of an item's pull request: the issue it closes and the brief it was judged against. */
export function itemPullBody(issue: number, briefHash: string): string {
  return [`Closes #${issue}`, "", `Brief: \`${briefHash}\` (the snapshot approved on #${issue}).`, "", "Opened by Bosun for the agent's work on this item; later attempts push to this same branch."].join("\n");
}

/**
 * Publishes an attempt's changes as one commit on the item's branch and keeps one pull request
 * for it: a later epoch commits on top of the branch (fast-forward only) and reuses the open pull
 * request, found by its natural identity (open, head = owner:branch) before any is created.
 * Commits go through the git data API, so the agent's checkout needs no push credential.
 */
export async function publishItemPull(octokit: Octokit, input: ItemPullInput): Promise<ItemPull> {
  const { owner, repo, branch } = input;
  const base = await octokit.rest.git.getCommit({ owner, repo, commit_sha: input.baseSha });
  const head = await branchHead(octokit, owner, repo, branch);
  const tree = await octokit.rest.git.createTree({
    owner,
    repo,
    base_tree: base.data.tree.sha,
    tree: input.changes.map((c) => (c.content === null ? { path: c.path, mode: c.mode, type: "blob" as const, sha: null } : { path: c.path, mode: c.mode, type: "blob" as const, content: c.content })),
  });
  const commit = await octokit.rest.git.createCommit({
    owner,
    repo,
    message: `${input.title}\n\nbosun: #${input.issue} epoch ${input.epoch}, brief ${input.briefHash}`,
    tree: tree.data.sha,
    // On top of the branch when it exists: the branch only moves forward, its history is kept.
    parents: [head ?? input.baseSha],
  });
  if (head === undefined) await createOrAdopt(octokit, owner, repo, branch, commit.data.sha);
  else await octokit.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha: commit.data.sha, force: false });
  const open = await openPullFor(octokit, owner, repo, branch);
  if (open !== undefined) return { number: open.number, url: open.html_url, branch, commit: commit.data.sha, created: false };
  try {
    const created = await octokit.rest.pulls.create({ owner, repo, head: branch, base: input.base, title: input.title, body: itemPullBody(input.issue, input.briefHash) });
    return { number: created.data.number, url: created.data.html_url, branch, commit: commit.data.sha, created: true };
  } catch (err) {
    // 422 "already exists": another run opened it between our listing and our create.
    if (statusOf(err) !== 422) throw err;
    const raced = await openPullFor(octokit, owner, repo, branch);
    if (raced === undefined) throw err;
    return { number: raced.number, url: raced.html_url, branch, commit: commit.data.sha, created: false };
  }
}

async function branchHead(octokit: Octokit, owner: string, repo: string, branch: string): Promise<string | undefined> {
  try {
    return (await octokit.rest.git.getRef({ owner, repo, ref: `heads/${branch}` })).data.object.sha;
  } catch (err) {
    if (statusOf(err) === 404) return undefined;
    throw err;
  }
}

/** Creates the branch; a 422 is read back (it may exist now, or the create may have applied). */
async function createOrAdopt(octokit: Octokit, owner: string, repo: string, branch: string, sha: string): Promise<void> {
  try {
    await octokit.rest.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha });
  } catch (err) {
    if (statusOf(err) !== 422) throw err;
    const now = await branchHead(octokit, owner, repo, branch);
    if (now === sha) return;
    if (now === undefined) throw err;
    // Someone created it first: our commit goes on top only if it is a fast-forward (it is not,
    // unless theirs is our base), so this refuses rather than overwrite their work.
    await octokit.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha, force: false });
  }
}

async function openPullFor(octokit: Octokit, owner: string, repo: string, branch: string) {
  const { data } = await octokit.rest.pulls.list({ owner, repo, state: "open", head: `${owner}:${branch}`, per_page: 10 });
  return data.find((p) => p.head.ref === branch);
}
