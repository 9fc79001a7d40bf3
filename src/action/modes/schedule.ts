import { actionScheduler } from "../action-scheduler.js";
import type { ActionIo, ActionMode } from "../action-io.js";
import { tokenInput } from "../action-inputs.js";

/**
 * `schedule` mode: the scheduler as an Action, for teams with no server. Each run is one tick —
 * the same ticker the App's replicas run, which takes approvals in, lands, reviews and grants —
 * so overlapping runs cannot fight: a tick's changes are one atomic batch, and a batch decided
 * from a state another run has changed is refused. Triggered by issues, issue_comment,
 * workflow_run, pull_request_target, check_run and schedule events; each is only a hint.
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
    const { ticker, config } = ctx;
    const payload = io.event.payload as { issue?: { number?: number }; comment?: { body?: string; user?: { login?: string } } };
    // The event's issue: its approval is read from GitHub's events this tick.
    if (typeof payload.issue?.number === "number") ticker.hint(payload.issue.number);
    if (io.event.name === "issue_comment" && payload.comment?.body !== undefined && payload.issue?.number !== undefined && payload.comment.user?.login !== undefined) {
      const outcome = await ticker.landByCommand(config, payload.issue.number, payload.comment.body, payload.comment.user.login);
      if (outcome !== "not a land command") io.log.info(`bosun land: ${outcome}`);
    }
    const report = await ticker.tick(config);
    io.setOutput("idle", String(report.view.idle));
    io.setOutput("report", JSON.stringify(report));
    const v = report.view;
    await io.summary(
      report.busy
        ? "### Bosun schedule\n\nOther runs kept changing the claims under this one; it changed nothing (the next run decides again).\n"
        : [
            "### Bosun schedule",
            "",
            `| dispatched | landed | in flight | in review | queued | idle |`,
            `|---|---|---|---|---|---|`,
            `| ${report.dispatched.map((n) => `#${n}`).join(" ") || "—"} | ${v.landed.map((l) => `#${l.n} ${l.disposition}`).join(", ") || "—"} | ${v.inFlight.length} | ${v.review.length} | ${v.queue.reduce((n, q) => n + q.items.length, 0)} | ${v.idle ? "yes" : "no"} |`,
            "",
          ].join("\n"),
    );
    if (report.failures.length > 0) io.log.info(`bosun schedule: some mirror writes failed (the next tick repairs them): ${report.failures.join("; ")}`);
  },
};

export default schedule;
