import type { Octokit } from "@octokit/rest";
import { createOctokit } from "../adapters/github/create-octokit.js";
import { readBosunConfig } from "../adapters/github/config-loader.js";
import { RepoTicker } from "../adapters/github/tick/repo-ticker.js";
import { systemClock } from "../adapters/local/system-clock.js";
import type { BosunConfig } from "../core/config/bosun-config.js";
import { traceLine } from "../core/journal/trace-line.js";
import type { ActionIo } from "./action-io.js";

/** The `copilot-token` input (a user-to-server token) as a client for `assign` to Copilot, when given. */
function copilotClient(io: ActionIo): { copilot?: Octokit } {
  const token = io.input("copilot-token").trim();
  if (token === "") return {};
  io.setSecret(token);
  return { copilot: createOctokit({ auth: token, baseUrl: io.env["GITHUB_API_URL"] ?? "https://api.github.com" }) };
}

/**
 * The repository's scheduler as an Action run sees it: an Octokit on the run's API, the
 * configuration from the default branch, journal events in the step log — the same ticker the
 * App's replicas run. Fails the step (and returns undefined) on a broken configuration, naming
 * every field.
 */
export async function actionScheduler(io: ActionIo, mode: string, token: string, holder: string): Promise<{ octokit: Octokit; config: BosunConfig; ticker: RepoTicker; botLogin: string } | undefined> {
  io.setSecret(token);
  const { owner, repo } = io.event.repo;
  const octokit = createOctokit({ auth: token, baseUrl: io.env["GITHUB_API_URL"] ?? "https://api.github.com" });
  // The default branch's file, a missing one read as the defaults. An Action run keeps no last
  // good configuration, so a broken file fails the step.
  const read = await readBosunConfig(octokit, { owner, repo });
  if (read.problems.length > 0) {
    io.setFailed(`bosun ${mode}: .github/bosun.yml is invalid:\n${read.problems.map((p) => `  ${p.field}: ${p.message}`).join("\n")}`);
    return undefined;
  }
  const payload = io.event.payload as { repository?: { default_branch?: string } };
  const botLogin = io.input("bot-login").trim() || "bosun[bot]";
  const ticker = new RepoTicker(octokit, {
    owner,
    repo,
    botLogin,
    defaultBranch: payload.repository?.default_branch ?? "main",
    holder,
    clock: systemClock,
    journal: { append: (event) => io.log.info(`${traceLine(event)}  ${JSON.stringify(event)}`) },
    ...copilotClient(io),
  });
  return { octokit, config: read.config, ticker, botLogin };
}
