import { Octokit } from "@octokit/rest";
import { readBosunConfig } from "../../adapters/github/read-bosun-config.js";
import { systemClock } from "../../adapters/local/system-clock.js";
import type { Journal } from "../../core/journal/journal-event.js";
import { traceLine } from "../../core/journal/trace-line.js";
import { RepoScheduler } from "../../app/scheduler/repo-scheduler.js";
import type { ActionIo, ActionMode } from "../action-io.js";

/**
 * `schedule` mode: the scheduler as an Action, for teams with no server. Each run is one
 * reconcile tick (the same code the app runs); the tick lock keeps overlapping runs from fighting.
 * Triggered by issues, issue_comment, workflow_run and schedule events.
 */
const schedule: ActionMode = {
  async run(io: ActionIo) {
    const token = io.input("github-token").trim() || (io.env["GITHUB_TOKEN"] ?? "");
    if (token === "") {
      io.setFailed("bosun schedule: no token: set input 'github-token' (an App installation token: a GITHUB_TOKEN's dispatches start no workflows)");
      return;
    }
    io.setSecret(token);
    const { owner, repo } = io.event.repo;
    const octokit = new Octokit({ auth: token, baseUrl: io.env["GITHUB_API_URL"] ?? "https://api.github.com" });
    const read = await readBosunConfig(octokit, owner, repo);
    if (read.config === undefined) {
      io.setFailed(`bosun schedule: .github/bosun.yml is invalid:\n${read.problems.map((p) => `  ${p.field}: ${p.message}`).join("\n")}`);
      return;
    }
    const journal: Journal = { append: (event) => io.log.info(`${traceLine(event)}  ${JSON.stringify(event)}`) };
    const payload = io.event.payload as { repository?: { default_branch?: string } };
    const scheduler = new RepoScheduler(octokit, {
      owner,
      repo,
      botLogin: io.input("bot-login").trim() || "github-actions[bot]",
      defaultBranch: payload.repository?.default_branch ?? "main",
      holder: `action-${io.event.runId}`,
      clock: systemClock,
      journal,
    });
    if (io.event.name === "issue_comment") {
      const comment = io.event.payload as { comment?: { body?: string; user?: { login?: string } }; issue?: { number?: number } };
      const author = comment.comment?.user?.login;
      if (comment.comment?.body !== undefined && comment.issue?.number !== undefined && author !== undefined) {
        const outcome = await scheduler.landByCommand(read.config, comment.issue.number, comment.comment.body, async () => {
          const { data } = await octokit.repos.getCollaboratorPermissionLevel({ owner, repo, username: author });
          return ["admin", "maintain", "write"].includes(data.role_name ?? data.permission);
        });
        io.log.info(`bosun land: ${outcome}`);
      }
    }
    const report = await scheduler.tick(read.config);
    io.setOutput("idle", String(report.idle));
    io.setOutput("report", JSON.stringify(report));
    await io.summary(
      report.busy
        ? "### Bosun schedule\n\nAnother run holds the tick lock; this run changed nothing.\n"
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
