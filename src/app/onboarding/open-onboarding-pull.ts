/**
 * The onboarding pull request, opened at most once per repository whatever the number of replicas
 * and redeliveries: a repository with `.github/bosun.yml` gets none, nor one that has ever had a
 * pull request from `bosun/setup` (open, merged or closed: a maintainer who closed it meant it).
 * The one lock is GitHub's: creating the branch ref fails with 422 when it exists, and opening a
 * second pull request from the same head fails with 422 too; any 422 is "unknown" until read back.
 */
import type { Octokit } from "@octokit/rest";
import { statusOf } from "../../adapters/github/status-of.js";
import { CONFIG_FILE, DEFAULT_INIT_AGENT, initFiles, WORKFLOW_DIR, type InitFile } from "../../core/setup/init-files.js";
import { onboardingBody } from "./onboarding-body.js";

export const ONBOARDING_BRANCH = "bosun/setup";
export const ONBOARDING_TITLE = "Set up Bosun";

/** What happened on one repository; only `opened` wrote a pull request. */
export type OnboardingOutcome =
  | { kind: "opened"; number: number }
  | { kind: "configured" }
  | { kind: "proposed-before"; number: number }
  | { kind: "opened-by-another"; number: number }
  | { kind: "branch-not-ours" }
  | { kind: "unknown"; reason: string };

export interface OnboardingOptions {
  /** The installation may write `.github/workflows/*` (its `workflows` permission); without it they are left out and listed as a step. */
  readonly canWriteWorkflows: boolean;
}

type Where = { owner: string; repo: string };

async function absent(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (err) {
    if (statusOf(err) === 404) return true;
    throw err;
  }
}

/** The pull request from the onboarding branch, in any state (oldest first), or undefined. */
async function existingPull(octokit: Octokit, where: Where): Promise<number | undefined> {
  const pulls = await octokit.rest.pulls.list({ ...where, state: "all", head: `${where.owner}:${ONBOARDING_BRANCH}`, per_page: 100, direction: "asc" });
  return pulls.data.find((p) => p.head.ref === ONBOARDING_BRANCH)?.number;
}

/** The files for the default agent; the workflows only when the installation may write them. */
export function onboardingFiles(options: OnboardingOptions): InitFile[] {
  const files = initFiles({ agent: DEFAULT_INIT_AGENT, actionOnly: false, verify: false });
  return options.canWriteWorkflows ? files : files.filter((f) => !f.path.startsWith(`${WORKFLOW_DIR}/`));
}

export async function openOnboardingPull(octokit: Octokit, where: Where, options: OnboardingOptions): Promise<OnboardingOutcome> {
  const { data: repository } = await octokit.rest.repos.get(where);
  const base = repository.default_branch;
  if (!(await absent(() => octokit.rest.repos.getContent({ ...where, path: CONFIG_FILE, ref: base })))) return { kind: "configured" };
  const before = await existingPull(octokit, where);
  if (before !== undefined) return { kind: "proposed-before", number: before };

  const { data: baseRef } = await octokit.rest.git.getRef({ ...where, ref: `heads/${base}` });
  const { data: baseCommit } = await octokit.rest.git.getCommit({ ...where, commit_sha: baseRef.object.sha });
  const files = onboardingFiles(options);
  const { data: tree } = await octokit.rest.git.createTree({ ...where, base_tree: baseCommit.tree.sha, tree: files.map((f) => ({ path: f.path, mode: "100644" as const, type: "blob" as const, content: f.content })) });
  const message = `${ONBOARDING_TITLE}\n\nWhat \`npx bosun init --agent ${DEFAULT_INIT_AGENT}\` writes, proposed by the Bosun App when it was installed.`;
  const { data: commit } = await octokit.rest.git.createCommit({ ...where, message, tree: tree.sha, parents: [baseRef.object.sha] });

  try {
    await octokit.rest.git.createRef({ ...where, ref: `refs/heads/${ONBOARDING_BRANCH}`, sha: commit.sha });
  } catch (err) {
    if (statusOf(err) !== 422) throw err;
    // Unknown until read back: another replica or delivery made the branch, or something else did.
    let sha: string;
    try {
      sha = (await octokit.rest.git.getRef({ ...where, ref: `heads/${ONBOARDING_BRANCH}` })).data.object.sha;
    } catch (readErr) {
      if (statusOf(readErr) === 404) return { kind: "unknown", reason: "creating the onboarding branch answered 422 and the branch is not there" };
      throw readErr;
    }
    const { data: theirs } = await octokit.rest.git.getCommit({ ...where, commit_sha: sha });
    if (!theirs.message.startsWith(`${ONBOARDING_TITLE}\n`)) return { kind: "branch-not-ours" };
  }

  try {
    const { data: pull } = await octokit.rest.pulls.create({ ...where, head: ONBOARDING_BRANCH, base, title: ONBOARDING_TITLE, body: onboardingBody({ repo: `${where.owner}/${where.repo}`, files, workflowsLeftOut: !options.canWriteWorkflows }) });
    return { kind: "opened", number: pull.number };
  } catch (err) {
    if (statusOf(err) !== 422) throw err;
    // GitHub allows one open pull request per head and base: read back who opened it.
    const other = await existingPull(octokit, where);
    return other === undefined ? { kind: "unknown", reason: "opening the onboarding pull request answered 422 and none is there" } : { kind: "opened-by-another", number: other };
  }
}
