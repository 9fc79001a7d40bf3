/** What the fake recorded about one item's life, read straight from its state (never from Bosun's bookkeeping). */
import { SNAPSHOT_MARKER } from "../../../src/core/brief/snapshot.js";
import { DASHBOARD_MARKER } from "../../../src/core/dashboard/dashboard-state.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import type { PullRecord } from "../../fake-github/state.js";
import { APP_ID, BOT, REPO } from "./life-world.js";

export function judge(fake: FakeGitHub) {
  const repo = () => fake.repo(REPO);
  return {
    labels: (n: number) => [...(repo().issues.get(n)?.labels ?? [])].sort(),
    issue: (n: number) => repo().issues.get(n),
    /** The bot's snapshot comments on an issue, with their edit times. */
    snapshots: (n: number) => [...repo().comments.values()].filter((c) => c.issueNumber === n && c.user === BOT && c.body.trimStart().startsWith(SNAPSHOT_MARKER)),
    /** The bot's comments on an issue that are not snapshots (status and problem comments). */
    notes: (n: number) => [...repo().comments.values()].filter((c) => c.issueNumber === n && c.user === BOT && !c.body.trimStart().startsWith(SNAPSHOT_MARKER)),
    /** The item's pull request: the one whose head branch is bosun/<n>-... */
    pull: (n: number): PullRecord | undefined => [...repo().pulls.values()].find((p) => p.headRef.startsWith(`bosun/${n}-`)),
    /** Check runs of a name on a sha, newest first, with the app that posted them. */
    checkRuns: (sha: string, name: string) => [...repo().checkRuns.values()].filter((r) => r.headSha === sha && r.name === name).sort((a, b) => b.id - a.id),
    /** The latest check run of a name posted by the App on a sha. */
    appCheck: (sha: string, name: string) => [...repo().checkRuns.values()].filter((r) => r.headSha === sha && r.name === name && r.appId === APP_ID).sort((a, b) => b.id - a.id)[0],
    /** Commit statuses of a context on a sha, oldest first. */
    statuses: (sha: string, context: string) => repo().statuses.filter((s) => s.sha === sha && s.context === context),
    /** Workflow runs of a workflow file, with their inputs. */
    runsOf: (path: string) => [...repo().workflowRuns.values()].filter((r) => repo().workflows.get(r.workflowId)?.path === path),
    dashboard: () => [...repo().issues.values()].find((i) => (i.body ?? "").startsWith(DASHBOARD_MARKER)),
  };
}
