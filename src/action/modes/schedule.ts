import { actionScheduler } from "../action-scheduler.js";
import { hasWriteAccess } from "../../adapters/github/has-write-access.js";
import { intakeEventOf } from "../intake-event.js";
import type { AppOctokit } from "../../app/app-octokit.js";
import { createLabelBootstrap } from "../../app/intake/ensure-labels.js";
import { runIntake } from "../../app/intake/run-intake.js";
import { createApprovalSweeper } from "../../app/intake/sweep-approvals.js";
import type { ActionIo, ActionMode } from "../action-io.js";
import { tokenInput } from "../action-inputs.js";

/**
 * `schedule` mode: the scheduler as an Action, for teams with no server. Each run is one
 * reconcile tick (the same code the app runs); overlapping runs cannot fight: a tick's claim
 * changes are one atomic batch, and a batch decided from a state another run has changed is refused.
 * Triggered by issues (where it also runs the intake, as the app would), issue_comment,
 * workflow_run and schedule events.
 */
const schedule: ActionMode = {
  async run(io: ActionIo) {
    const token = tokenInput(io);
    if (token === "") {
      io.setFailed("bosun schedule: no token: set input 'github-token' (an App installation token: a GITHUB_TOKEN's dispatches start no workflows)");
      return;
    }
    const ctx = await actionScheduler(io, "schedule", token, `action-${io.event.runId}`);
    if (ctx === undefined) return;
    const { octokit, scheduler } = ctx;
    const { owner, repo } = io.event.repo;
    if (io.event.name === "issues") {
      // Teams with no server take briefs in here too: the same intake the app runs.
      const payload = io.event.payload as { action?: string; issue?: { number?: number; body?: string | null }; label?: { name?: string }; sender?: { login?: string } };
      const event = intakeEventOf(payload.action, payload);
      const botLogin = io.input("bot-login").trim() || "bosun[bot]";
      if (event !== undefined && payload.issue?.number !== undefined && event.sender.toLowerCase() !== botLogin.toLowerCase()) {
        const appOctokit = octokit as unknown as AppOctokit;
        const log = { info: (obj: object, msg: string) => io.log.info(`${msg} ${JSON.stringify(obj)}`), debug: (obj: object, msg: string) => io.log.debug(`${msg} ${JSON.stringify(obj)}`) };
        await runIntake({ octokit: appOctokit, repo: { owner, repo }, log, labels: () => createLabelBootstrap()(appOctokit, { owner, repo }, ctx.config), snapshots: ctx.snapshots }, payload.issue.number, event, botLogin, ctx.config);
      }
    }
    if (io.event.name === "issue_comment") {
      const comment = io.event.payload as { comment?: { body?: string; user?: { login?: string } }; issue?: { number?: number } };
      const author = comment.comment?.user?.login;
      if (comment.comment?.body !== undefined && comment.issue?.number !== undefined && author !== undefined) {
        const outcome = await scheduler.landByCommand(ctx.config, comment.issue.number, comment.comment.body, () => hasWriteAccess(octokit, owner, repo, author));
        io.log.info(`bosun land: ${outcome}`);
      }
    }
    if (io.event.name === "schedule" || io.event.name === "workflow_dispatch") {
      // The cron run also takes in approvals whose `issues` run never came (or read a stale issue).
      const appOctokit = octokit as unknown as AppOctokit;
      const log = { info: (obj: object, msg: string) => io.log.info(`${msg} ${JSON.stringify(obj)}`), debug: (obj: object, msg: string) => io.log.debug(`${msg} ${JSON.stringify(obj)}`) };
      const botLogin = io.input("bot-login").trim() || "bosun[bot]";
      const swept = await createApprovalSweeper().sweep({ octokit: appOctokit, repo: { owner, repo }, log, labels: () => createLabelBootstrap()(appOctokit, { owner, repo }, ctx.config), snapshots: ctx.snapshots }, botLogin, ctx.config);
      if (swept.approvals.length > 0) io.log.info(`bosun schedule: swept in approvals ${swept.approvals.map((n) => `#${n}`).join(" ")}`);
    }
    const report = await scheduler.tick(ctx.config);
    io.setOutput("idle", String(report.idle));
    io.setOutput("report", JSON.stringify(report));
    await io.summary(
      report.busy
        ? "### Bosun schedule\n\nOther runs kept changing the claims under this one; it changed nothing (the next run decides again).\n"
        : [
            "### Bosun schedule",
            "",
            `| dispatched | landed | reclaimed | in flight | idle |`,
            `|---|---|---|---|---|`,
            `| ${report.dispatched.map((n) => `#${n}`).join(" ") || "—"} | ${report.landed.map((l) => `#${l.issue} ${l.disposition}`).join(", ") || "—"} | ${report.reclaimed.map((n) => `#${n}`).join(" ") || "—"} | ${report.inFlight.length} | ${report.idle ? "yes" : "no"} |`,
            "",
          ].join("\n"),
    );
  },
};

export default schedule;
