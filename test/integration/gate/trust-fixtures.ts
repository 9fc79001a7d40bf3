import type { Octokit } from "@octokit/rest";
import type { ClaimRecord } from "../../../src/core/claims/claim-record.js";
import { renderBatchMessage, renderClaimMessage } from "../../../src/core/claims/claim-record.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import type { PullRecord } from "../../fake-github/state.js";
import { TempRepo } from "./temp-repo.js";

/** Git's empty tree: claim commits carry no files. */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/**
 * A real git checkout whose HEAD is the pull request's head on the fake: the fake learns the real
 * commit's SHA (a copy of its head commit under that SHA), so `git rev-parse HEAD` in the working
 * directory and the event's head SHA can agree, as they do on a runner after actions/checkout.
 */
export function checkoutOf(fake: FakeGitHub, fullName: string, pull: PullRecord, content = "checked out\n"): TempRepo {
  const checkout = new TempRepo().write("README.md", content).commit(`checkout of #${pull.number}`);
  const sha = checkout.git("rev-parse", "HEAD").trim();
  const repo = fake.repo(fullName);
  const head = repo.commits.get(pull.headSha);
  if (head === undefined) throw new Error(`no head commit ${pull.headSha} in the fake`);
  repo.commits.set(sha, { ...head, sha });
  repo.refs.set(`refs/heads/${pull.headRef}`, sha);
  pull.headSha = sha;
  pull.commits = [...pull.commits.slice(0, -1), sha];
  return checkout;
}

/** A push to the PR's branch as GitHub sees it: a new head commit (the fake's own SHA). */
export function pushTo(fake: FakeGitHub, fullName: string, pull: PullRecord, message = "a later push"): string {
  const pushed = fake.commit(fullName, pull.headRef, message, { [`later-${pull.number}.txt`]: message });
  pull.headSha = pushed.sha;
  pull.commits.push(pushed.sha);
  return pushed.sha;
}

/** A claim record as Bosun's scheduler writes it at grant, with the pool and the snapshot's hash. */
export function grant(key: string, fields: Partial<ClaimRecord> = {}): ClaimRecord {
  return { key, holder: "replica-1", epoch: 1, state: "held", leaseUntil: 9_999_999_999_999, at: 1, pool: "default", ...fields };
}

/** Writes one claim commit on `refs/bosun/claims/<n>` through the fake's git API (as the scheduler does). */
export async function writeClaim(octokit: Octokit, repo: { owner: string; repo: string }, issue: number, record: ClaimRecord, prefix = "refs/bosun/claims/"): Promise<string> {
  const { data } = await octokit.git.createCommit({ ...repo, message: renderClaimMessage(record), tree: EMPTY_TREE, parents: [] });
  await octokit.git.createRef({ ...repo, ref: `${prefix}${issue}`, sha: data.sha });
  return data.sha;
}

/** Writes one batch commit that moves several items' claim refs at once. */
export async function writeBatchClaim(octokit: Octokit, repo: { owner: string; repo: string }, items: ReadonlyArray<{ issue: number; record: ClaimRecord }>, prefix = "refs/bosun/claims/"): Promise<string> {
  const message = renderBatchMessage(items.map((i) => ({ ref: `${prefix}${i.issue}`, from: undefined, record: i.record })));
  const { data } = await octokit.git.createCommit({ ...repo, message, tree: EMPTY_TREE, parents: [] });
  for (const i of items) await octokit.git.createRef({ ...repo, ref: `${prefix}${i.issue}`, sha: data.sha });
  return data.sha;
}
