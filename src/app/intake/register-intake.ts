import type { Context, Probot } from "probot";
import { decideIntake, intakeReads } from "../../core/intake/decide-intake.js";
import type { IntakeContext, IntakeEvent } from "../../core/intake/intake-types.js";
import type { AppOctokit, RepoRef } from "../app-octokit.js";
import type { ConfigLoader, LoadedConfig } from "../config/load-config.js";
import type { LabelBootstrap } from "./ensure-labels.js";
import { executeIntake } from "./execute-intake.js";
import { octokitIntakeGitHub } from "./octokit-intake-github.js";
import type { SerializeByKey } from "./serialize-by-key.js";

/** What the intake handlers need from the app: all IO edges, passed in. */
export interface IntakeDeps {
  readonly config: ConfigLoader;
  readonly labels: LabelBootstrap;
  /** The app's bot login (`bosun[bot]`): its comments are the only snapshots that count. */
  readonly botLogin: () => Promise<string>;
  readonly serialize: SerializeByKey;
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
    await intake(context, repo, number, event, botLogin, loaded);
    // After the intake, so the report also lists what this event just decided.
    if (loaded.problemsChanged && deps.onConfigProblems !== undefined) await deps.onConfigProblems(context.octokit, repo, loaded);
  }

  async function intake(context: Context<IssueEvent>, repo: RepoRef, number: number, event: IntakeEvent, botLogin: string, loaded: LoadedConfig): Promise<void> {
    const ctx: IntakeContext = { botLogin, labels: loaded.config.labels };
    const log = context.log.child({ issue: number, event: `issues.${event.kind}` });
    const reads = intakeReads(event, ctx);
    if (!reads.relevant) {
      log.debug({ reason: reads.reason }, "intake: ignored");
      return;
    }
    const github = octokitIntakeGitHub(context.octokit, repo);
    let hinted = event;
    if (reads.permission && event.kind === "labeled") {
      const canWrite = await github.canWrite(event.sender);
      if (!canWrite) {
        log.info({ sender: event.sender }, "intake: ignored an approval by someone without write access");
        return;
      }
      hinted = { ...event, senderCanWrite: true };
    }
    const issue = await github.issue(number);
    const queuedOrHeld = issue.labels.some((l) => l === ctx.labels.queued || l === ctx.labels.hold);
    // An issue without comments has no snapshot to find; an edit matters only to a queued item.
    const needComments = reads.comments && issue.commentCount > 0 && (event.kind !== "edited" || queuedOrHeld);
    const comments = needComments ? await github.comments(number) : [];
    const decision = decideIntake(hinted, { ...issue, comments }, ctx);
    const writes = await executeIntake(github, number, decision.actions, () => deps.labels(context.octokit, repo, loaded.config));
    log.info({ outcome: decision.outcome, reason: decision.reason, writes }, `intake: ${decision.outcome}`);
  }
}
