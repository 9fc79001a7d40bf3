import { createOctokit } from "../../adapters/github/create-octokit.js";
import type { ActionIo, ActionMode } from "../action-io.js";
import { tokenInput } from "../action-inputs.js";
import { createVerifyProbe } from "../../adapters/create-verify-probe.js";
import { createOctokitDeployGitHub } from "../../adapters/github/octokit-deploy-github.js";
import { secretValues } from "../../adapters/local/secret-values.js";
import { systemClock } from "../../adapters/local/system-clock.js";
import { runVerifyAction } from "../verify/run-verify-action.js";

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
    await runVerifyAction(io, {
      github: createOctokitDeployGitHub(octokit, io.event.repo),
      clock: systemClock,
      probeFor: (target) => createVerifyProbe(target, { env: { ...io.env } }),
      secrets: [token, ...secretValues(io.env)],
    });
  },
};

export default verifyMode;
