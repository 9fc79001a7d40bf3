import { createOctokit } from "../../adapters/github/create-octokit.js";
import type { ActionIo, ActionMode } from "../action-io.js";
import { tokenInput } from "../action-inputs.js";
import { createVerifyProbe } from "../../adapters/create-verify-probe.js";
import { createOctokitDeployGitHub } from "../../adapters/github/octokit-deploy-github.js";
import { secretValues } from "../../adapters/local/secret-values.js";
import { systemClock } from "../../adapters/local/system-clock.js";
import { runVerifyAction } from "../verify/run-verify-action.js";
import { readVerifyTrust } from "../verify/read-verify-trust.js";
import { readBosunConfig } from "../../adapters/github/config-loader.js";
import { RepoTicker } from "../../adapters/github/tick/repo-ticker.js";
import { traceLine } from "../../core/journal/trace-line.js";

/**
 * The `verify` mode (DESIGN.md, "The Action"): wires the real clock, probes and an Octokit on
 * `GITHUB_API_URL` (GHES, or the fake GitHub in tests) into `runVerifyAction`.
 */
const verifyMode: ActionMode = {
  async run(io: ActionIo) {
    const token = tokenInput(io);
    if (token === "") {
      io.setFailed("bosun verify: no token: set input 'github-token' to post statuses and land items");
      return;
    }
    io.setSecret(token);
    const octokit = createOctokit({
      auth: token,
      baseUrl: io.env["GITHUB_API_URL"] ?? "https://api.github.com",
      userAgent: "bosun-verify",
    });
    const read = await readVerifyTrust(io, () => readBosunConfig(octokit, io.event.repo));
    if (!read.ok) {
      io.setFailed(`bosun verify: ${read.problem}`);
      return;
    }
    const deploy = createOctokitDeployGitHub(octokit, io.event.repo);
    // An item Bosun ran ends on its record (merged → done, written as the App, read back by the
    // scheduler); one Bosun has no record of (a person's pull request closing an issue) is labelled.
    const botLogin = io.input("bot-login").trim();
    const deployed = (io.event.payload as { deployment?: { sha?: string; environment?: string } }).deployment;
    const config = (await readBosunConfig(octokit, io.event.repo)).config;
    const ticker = botLogin === "" ? undefined : new RepoTicker(octokit, { ...io.event.repo, botLogin, defaultBranch: "main", holder: `verify-${io.event.runId}`, clock: systemClock, journal: { append: (event) => io.log.info(traceLine(event)) } });
    const github: typeof deploy = {
      ...deploy,
      async landItem(issue, comment) {
        const landed = ticker === undefined ? "no bot-login" : await ticker.landVerified(config, issue, deployed?.sha ?? "", `verified in ${deployed?.environment ?? "its environment"} at ${(deployed?.sha ?? "").slice(0, 12)}`);
        if (landed === "done") {
          await octokit.rest.issues.createComment({ ...io.event.repo, issue_number: issue, body: comment });
          return;
        }
        await deploy.landItem(issue, comment);
      },
    };
    await runVerifyAction(io, {
      trust: read.trust,
      github,
      clock: systemClock,
      probeFor: (target) => createVerifyProbe(target, { env: { ...io.env } }),
      secrets: [token, ...secretValues(io.env)],
    });
  },
};

export default verifyMode;
