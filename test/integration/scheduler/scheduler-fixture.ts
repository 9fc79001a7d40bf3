import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { octokitClaimRefs } from "../../../src/adapters/github/claim-refs-api.js";
import { GitHubClaimStore } from "../../../src/adapters/github/github-claim-store.js";
import { ManualClock } from "../../../src/adapters/memory/manual-clock.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import { parseBriefYaml } from "../../../src/core/brief/parse-brief.js";
import { renderSnapshotComment } from "../../../src/core/brief/snapshot.js";
import { GuardedClaimStore } from "../../../src/core/claims/guarded-claim-store.js";
import type { BosunConfig } from "../../../src/core/config/bosun-config.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import { octokitSchedulerGitHub } from "../../../src/app/scheduler/octokit-scheduler-github.js";
import type { TickDeps } from "../../../src/app/scheduler/reconcile-tick.js";

export const REPO = "acme/app";
export const WORKFLOW = "bosun-work.yml";

/** A repository on the fake GitHub with Bosun's bot, a dispatch workflow and a config. */
export async function schedulerFixture(configYaml = `pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: ${WORKFLOW}}}\nlease: 10m\n`, seed = 1) {
  // Starts at the wall clock: modes that run in the same test (work) read real time. The fake
  // shares it, so a run's creation and a claim's grant are on one timeline.
  const clock = new ManualClock(Date.now());
  const fake: FakeGitHub = await createFakeGitHub({ seed, clock });
  fake.addRepo({ fullName: REPO });
  fake.addToken("t-bot", "bosun[bot]", { permissions: { [REPO]: "write" } });
  fake.addWorkflow(REPO, { path: `.github/workflows/${WORKFLOW}`, name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
  const parsed = parseConfig(configYaml);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const config: BosunConfig = parsed.config;
  const octokit = createTestOctokit(fake.url, "t-bot");

  /** Files an issue the intake would have queued: labels and the bot's snapshot comment. */
  async function queue(id: string, extra = "", labels: string[] = []): Promise<number> {
    const brief = parseBriefYaml(`goal: Work on ${id}.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 100\nclaim_key: task:${id}\n${extra}`, { name: id, defaultId: id });
    if (!brief.ok) throw new Error(JSON.stringify(brief.problems));
    const issue = fake.addIssue(REPO, { title: `Work on ${id}`, labels: [config.labels.ready, config.labels.queued, ...labels] });
    await octokit.issues.createComment({ owner: "acme", repo: "app", issue_number: issue.number, body: renderSnapshotComment(brief.brief) });
    return issue.number;
  }

  /** A new snapshot comment by the bot, as the intake writes on a re-approval of a landed item. */
  async function snapshotAgain(issue: number, id: string, extra = ""): Promise<void> {
    const brief = parseBriefYaml(`goal: Work on ${id}.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 100\nclaim_key: task:${id}\n${extra}`, { name: id, defaultId: id });
    if (!brief.ok) throw new Error(JSON.stringify(brief.problems));
    await octokit.issues.createComment({ owner: "acme", repo: "app", issue_number: issue, body: renderSnapshotComment(brief.brief) });
  }

  /** The dependencies of one replica's tick (each replica has its own clients and caches). */
  function replica(holder: string, journal = new MemoryJournal()): TickDeps & { journal: MemoryJournal } {
    const client = createTestOctokit(fake.url, "t-bot");
    const store = new GitHubClaimStore({ refs: octokitClaimRefs(client, "acme", "app"), prefix: config.claims.ref_prefix });
    const github = octokitSchedulerGitHub(client, { owner: "acme", repo: "app", botLogin: "bosun[bot]", defaultBranch: "main", now: () => clock.now() });
    return { github, store, claims: new GuardedClaimStore(store, store), config, clock, journal, holder, shadow: { ticks: 0, differing: 0 } };
  }

  function runsOf(issue: number): Array<{ id: number; epoch: number; status: string }> {
    return [...fake.repo(REPO).workflowRuns.values()].filter((r) => r.inputs["item"] === String(issue)).map((r) => ({ id: r.id, epoch: Number(r.inputs["epoch"]), status: r.status }));
  }

  function labelsOf(issue: number): string[] {
    return [...(fake.repo(REPO).issues.get(issue)?.labels ?? [])].sort();
  }

  return { fake, config, clock, octokit, queue, snapshotAgain, replica, runsOf, labelsOf };
}

/**
 * The store of a tick made to stall right after its first claim listing, until `resume()`: how a
 * test puts another tick between one tick's read and its write, deterministically.
 */
export function stallAfterListing(store: GitHubClaimStore): { store: GitHubClaimStore; listed: Promise<void>; resume: () => void } {
  let listed!: () => void;
  let resume!: () => void;
  const hasListed = new Promise<void>((r) => (listed = r));
  const gate = new Promise<void>((r) => (resume = r));
  let stalled = false;
  const stalling = new Proxy(store, {
    get(target, prop) {
      if (prop === "listClaims" && !stalled)
        return async () => {
          stalled = true;
          const claims = await target.listClaims();
          listed();
          await gate;
          return claims;
        };
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: stalling, listed: hasListed, resume };
}
