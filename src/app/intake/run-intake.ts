import type { BosunConfig } from "../../core/config/bosun-config.js";
import { decideIntake, intakeReads } from "../../core/intake/decide-intake.js";
import type { IntakeContext, IntakeEvent } from "../../core/intake/intake-types.js";
import type { AppOctokit, RepoRef } from "../app-octokit.js";
import { executeIntake } from "./execute-intake.js";
import { isSnapshotComment, parseSnapshotComment } from "../../core/brief/snapshot.js";
import type { SnapshotCache } from "../snapshot-cache.js";
import { octokitIntakeGitHub } from "./octokit-intake-github.js";
import { statusOf } from "../../adapters/github/status-of.js";

/** Where an intake runs: the app (Probot's context) or the Action's schedule mode. */
export interface IntakeSite {
  readonly octokit: AppOctokit;
  readonly repo: RepoRef;
  readonly log: { info(obj: object, msg: string): void; debug(obj: object, msg: string): void };
  /** Creates Bosun's labels once, before the first label write. */
  readonly labels: () => Promise<unknown>;
  /** Where a snapshot this intake posts is remembered for the scheduler of the same process. */
  readonly snapshots?: SnapshotCache;
  /** Waits before reading again (default: a real timer); tests pass their own. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * Pauses before each read again: a read right after a write can be stale, and a just-created
 * issue can 404 for a moment (GitHub: "Treat the write's own response as authoritative and retry
 * reads"). Four reads in all, over about 4 s; past that the sweep takes the approval in.
 */
export const INTAKE_READ_RETRIES_MS: readonly number[] = [250, 1000, 3000];

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One intake event on one issue: read what the decision needs (the sender's permission through
 * the API, the issue, its comments), decide from the issue's current state, and write the result.
 */
export async function runIntake(site: IntakeSite, number: number, event: IntakeEvent, botLogin: string, config: BosunConfig): Promise<void> {
  const ctx: IntakeContext = { botLogin, labels: config.labels };
  const reads = intakeReads(event, ctx);
  if (!reads.relevant) {
    site.log.debug({ reason: reads.reason }, "intake: ignored");
    return;
  }
  const github = octokitIntakeGitHub(site.octokit, site.repo);
  let hinted = event;
  if (reads.permission && event.kind === "labeled") {
    const canWrite = await github.canWrite(event.sender);
    if (!canWrite) {
      site.log.info({ sender: event.sender }, "intake: ignored an approval by someone without write access");
      return;
    }
    hinted = { ...event, senderCanWrite: true };
  }
  const sleep = site.sleep ?? realSleep;
  let decision;
  let issue;
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= INTAKE_READ_RETRIES_MS.length;
    try {
      issue = await github.issue(number);
    } catch (err) {
      // A just-created issue can 404 for a moment: only a 404 that lasts means it is gone.
      if (statusOf(err) !== 404 || last) throw err;
      await sleep(INTAKE_READ_RETRIES_MS[attempt] as number);
      continue;
    }
    const queuedOrHeld = issue.labels.some((l) => l === ctx.labels.queued || l === ctx.labels.hold);
    // An issue without comments has no snapshot to find; an edit matters only to a queued item.
    const needComments = reads.comments && issue.commentCount > 0 && (event.kind !== "edited" || queuedOrHeld);
    const comments = needComments ? await github.comments(number) : [];
    decision = decideIntake(hinted, { ...issue, comments }, ctx);
    if (decision.outcome !== "stale" || last) break;
    // Stale, or removed since (webhooks come out of order)? GitHub's issue events tell: a removal
    // after the approval is the truth and ends it here; otherwise the read lags, so read again.
    if ((await github.lastLabelEvent(number, ctx.labels.ready))?.event === "unlabeled") {
      site.log.info({ reason: `${ctx.labels.ready} was removed since` }, "intake: ignored");
      return;
    }
    site.log.debug({ attempt, reason: decision.reason }, "intake: the read looks stale; reading again");
    await sleep(INTAKE_READ_RETRIES_MS[attempt] as number);
  }
  if (decision.outcome === "stale") {
    // Still not visible after every retry: conclude nothing. If the approval stands, the sweep finds it.
    site.log.info({ reason: decision.reason }, "intake: the approval is not visible yet; the sweep takes it in if it stands");
    return;
  }
  const { writes, posted } = await executeIntake(github, number, decision.actions, site.labels);
  // The scheduler dispatches from the snapshot: tell it what was just posted, so it need not read it back.
  const snapshot = posted.filter((c) => isSnapshotComment(c.body)).at(-1);
  if (snapshot !== undefined && site.snapshots !== undefined) {
    const parsed = parseSnapshotComment(snapshot.body, `issue #${number}`);
    if (parsed.ok) site.snapshots.set(`${site.repo.owner}/${site.repo.repo}`, number, issue.commentCount + posted.length, { ok: true, snapshot: parsed.snapshot, commentId: snapshot.id, body: snapshot.body });
  }
  site.log.info({ outcome: decision.outcome, reason: decision.reason, writes }, `intake: ${decision.outcome}`);
}
