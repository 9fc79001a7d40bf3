import type { Context, Probot } from "probot";
import type { IntakeEvent } from "../../core/intake/intake-types.js";
import type { AppOctokit, RepoRef } from "../app-octokit.js";
import type { ConfigLoader, LoadedConfig } from "../config/load-config.js";
import type { LabelBootstrap } from "./ensure-labels.js";
import { runIntake } from "./run-intake.js";
import type { SerializeByKey } from "./serialize-by-key.js";
import type { SnapshotCache } from "../snapshot-cache.js";

/** What the intake handlers need from the app: all IO edges, passed in. */
export interface IntakeDeps {
  readonly config: ConfigLoader;
  readonly labels: LabelBootstrap;
  /** The app's bot login (`bosun[bot]`): its comments are the only snapshots that count. */
  readonly botLogin: () => Promise<string>;
  readonly serialize: SerializeByKey;
  /** Where posted snapshots are remembered for the scheduler of the same process. */
  readonly snapshots?: SnapshotCache;
  /** Called when a repository's configuration problems changed (report them on the dashboard). */
  readonly onConfigProblems?: (octokit: AppOctokit, repo: RepoRef, loaded: LoadedConfig) => Promise<void>;
}

type IssueEvent = "issues.labeled" | "issues.unlabeled" | "issues.edited" | "issues.closed";

/**
 * The intake on GitHub: `bosun:ready` added by a writer turns an issue into a frozen brief (or one
 * comment listing its problems); edits after the snapshot hold the item; closing or withdrawing the
 * label takes it out of the queue. Each handler re-reads the issue and decides from its state.
 */
export function registerIntake(app: Probot, deps: IntakeDeps): void {
  const on = (name: IssueEvent, hint: (context: Context<IssueEvent>) => IntakeEvent) => {
    app.on(name, async (context) => {
      const { issue } = context.payload;
      const repo = context.repo();
      await deps.serialize(`${repo.owner}/${repo.repo}#${issue.number}`.toLowerCase(), () => handle(context, repo, issue.number, hint(context)));
    });
  };
  on("issues.labeled", (c) => {
    const p = (c as Context<"issues.labeled">).payload;
    return { kind: "labeled", label: p.label?.name ?? "", sender: p.sender.login, senderCanWrite: false, approvedBody: p.issue.body ?? "" };
  });
  on("issues.unlabeled", (c) => {
    const p = (c as Context<"issues.unlabeled">).payload;
    return { kind: "unlabeled", label: p.label?.name ?? "", sender: p.sender.login };
  });
  on("issues.edited", (c) => ({ kind: "edited", sender: c.payload.sender.login }));
  on("issues.closed", (c) => ({ kind: "closed", sender: c.payload.sender.login }));

  async function handle(context: Context<IssueEvent>, repo: RepoRef, number: number, event: IntakeEvent): Promise<void> {
    const botLogin = await deps.botLogin();
    // Our own label and comment writes come back as webhooks: drop them before any request.
    if (event.sender.toLowerCase() === botLogin.toLowerCase()) return;
    const loaded = await deps.config.load(context.octokit, repo);
    await runIntake({ octokit: context.octokit, repo, log: context.log.child({ issue: number, event: `issues.${event.kind}` }), labels: () => deps.labels(context.octokit, repo, loaded.config), ...(deps.snapshots === undefined ? {} : { snapshots: deps.snapshots }) }, number, event, botLogin, loaded.config);
    // After the intake, so the report also lists what this event just decided.
    if (loaded.problemsChanged && deps.onConfigProblems !== undefined) await deps.onConfigProblems(context.octokit, repo, loaded);
  }
}
