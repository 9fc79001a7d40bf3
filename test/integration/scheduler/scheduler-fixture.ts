import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { ManualClock } from "../../../src/adapters/memory/manual-clock.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import { RepoTicker } from "../../../src/adapters/github/tick/repo-ticker.js";
import type { BosunConfig } from "../../../src/core/config/bosun-config.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import { runItems } from "../../support/run-items.js";

export const REPO = "acme/app";

export const WORKFLOW = "bosun-work.yml";
export const BOT = "bosun[bot]";

/** A brief as an issue body holds it (a fenced yaml block), for `queue`; `extra` is more YAML lines. */
export function briefBody(id: string, extra = ""): string {
  // The closing fence must start its own line, or the block never ends and the brief is invalid.
  const more = extra === "" || extra.endsWith("\n") ? extra : `${extra}\n`;
  return `\`\`\`yaml\nid: ${id}\ngoal: Work on ${id}.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 100\nclaim_key: task:${id}\n${more}\`\`\`\n`;
}

/**
 * A repository on the fake GitHub with Bosun's bot (an installation token that GitHub signs the
 * API commits of), a maintainer who approves, a dispatch workflow and a config.
 */
export async function schedulerFixture(configYaml = `pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: ${WORKFLOW}}}\nlease: 10m\n`, seed = 1) {
  // Starts at the wall clock: modes that run in the same test (work) read real time. The fake
  // shares it, so a run's creation and a claim's grant are on one timeline.
  const clock = new ManualClock(Date.now());
  const fake: FakeGitHub = await createFakeGitHub({ seed, clock });
  fake.addRepo({ fullName: REPO });
  fake.addToken("t-bot", BOT, { permissions: { [REPO]: "write" } });
  fake.addToken("t-maintainer", "mona", { permissions: { [REPO]: "maintain" } });
  const parsed = parseConfig(configYaml);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const config: BosunConfig = parsed.config;
  // The run name of the form the pool dispatches: one item, or a batch (docs/workflows/bosun-work.yml).
  const batched = Object.values(config.pools).some((p) => p.dispatch.kind === "workflow" && p.dispatch.batch === true);
  fake.addWorkflow(REPO, { path: `.github/workflows/${WORKFLOW}`, name: "bosun work", runName: batched ? "bosun ${{ inputs.title }}" : "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
  const octokit = createTestOctokit(fake.url, "t-bot");
  const maintainer = createTestOctokit(fake.url, "t-maintainer");

  /** Files an issue holding a brief (by `tia`) and has the maintainer approve it: what a tick takes in. */
  async function queue(id: string, extra = "", labels: string[] = []): Promise<number> {
    const issue = fake.addIssue(REPO, { title: `Work on ${id}`, body: briefBody(id, extra), user: "tia", labels });
    await maintainer.issues.addLabels({ owner: "acme", repo: "app", issue_number: issue.number, labels: [config.labels.ready] });
    return issue.number;
  }

  /** Withdraws and gives again the approval (a new approval event), as a maintainer re-approving does. */
  async function reapprove(issue: number): Promise<void> {
    await maintainer.issues.removeLabel({ owner: "acme", repo: "app", issue_number: issue, name: config.labels.ready });
    await maintainer.issues.addLabels({ owner: "acme", repo: "app", issue_number: issue, labels: [config.labels.ready] });
  }

  /** One replica's ticker (its own clients and caches). */
  function replica(holder: string, journal = new MemoryJournal(), cfg = config): { ticker: RepoTicker; journal: MemoryJournal; tick: () => ReturnType<RepoTicker["tick"]> } {
    const ticker = new RepoTicker(createTestOctokit(fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", holder, clock, journal });
    return { ticker, journal, tick: () => ticker.tick(cfg) };
  }

  function runsOf(issue: number): Array<{ id: number; epoch: number; status: string }> {
    return [...fake.repo(REPO).workflowRuns.values()].flatMap((r) => runItems(r).filter((i) => i.item === String(issue)).map((i) => ({ id: r.id, epoch: i.epoch, status: r.status })));
  }

  function labelsOf(issue: number): string[] {
    return [...(fake.repo(REPO).issues.get(issue)?.labels ?? [])].sort();
  }

  /** Comments on an issue as `[author, first line]`. */
  function commentsOf(issue: number): Array<[string, string]> {
    return [...fake.repo(REPO).comments.values()].filter((c) => c.issueNumber === issue).map((c) => [c.user, c.body.split("\n")[0] ?? ""]);
  }

  return { fake, config, clock, octokit, maintainer, queue, reapprove, replica, runsOf, labelsOf, commentsOf };
}
