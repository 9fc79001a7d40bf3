/**
 * Workflow runs a pull request starts, as GitHub records them: when a PR is opened, reopened or
 * its head moves, each workflow on `pull_request` runs the file of the PR's merge commit, and
 * GitHub's record of the run names the PR's head branch, head SHA and head repository (a fork for
 * a fork's PR) — not the PR itself: the run's `pull_requests` is computed when read, from the PRs
 * open at that moment with its head branch or head SHA (`to-json-ci.ts`).
 */
import type { FakeGitHub } from "./create-fake-github.js";
import { nextId, type PullRecord, type WorkflowRunRecord } from "./state.js";

/** Starts (status `in_progress`) the `pull_request` run of workflow `path` for a pull request's head; returns the run. */
export function startPullRequestRun(fake: FakeGitHub, fullName: string, pull: PullRecord, path: string): WorkflowRunRecord {
  const repo = fake.repo(fullName);
  const workflow = [...repo.workflows.values()].find((w) => w.path === path) ?? repo.workflows.get(fake.addWorkflow(fullName, { path, name: path.split("/").pop() ?? path }));
  if (workflow === undefined) throw new Error(`fake-github: no workflow ${path}`);
  const now = fake.clock.now();
  const run: WorkflowRunRecord = {
    id: nextId(fake.state),
    workflowId: workflow.id,
    event: "pull_request",
    headBranch: pull.headRef,
    headSha: pull.headSha,
    ...(pull.headRepo === undefined ? {} : { headRepo: pull.headRepo }),
    status: "in_progress",
    conclusion: null,
    inputs: {},
    actor: repo.issues.get(pull.number)?.user ?? repo.owner,
    runNumber: [...repo.workflowRuns.values()].filter((r) => r.workflowId === workflow.id).length + 1,
    createdAt: now,
    updatedAt: now,
  };
  repo.workflowRuns.set(run.id, run);
  return run;
}
