import { createOctokit } from "../../adapters/github/create-octokit.js";
import type { ActionIo, ActionMode } from "../action-io.js";
import { tokenInput } from "../action-inputs.js";
import { createVerifyProbe } from "../../adapters/create-verify-probe.js";
import { createOctokitDeployGitHub } from "../../adapters/github/octokit-deploy-github.js";
import { secretValues } from "../../adapters/local/secret-values.js";
import { systemClock } from "../../adapters/local/system-clock.js";
import { runVerifyAction } from "../verify/run-verify-action.js";
import { readVerifyTrust } from "../verify/read-verify-trust.js";
import type { AppOctokit } from "../../app/app-octokit.js";
import { createConfigLoader } from "../../app/config/load-config.js";

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
    const read = await readVerifyTrust(io, () => createConfigLoader({ now: () => Date.now() }).load(octokit as unknown as AppOctokit, io.event.repo));
    if (!read.ok) {
      io.setFailed(`bosun verify: ${read.problem}`);
      return;
    }
    await runVerifyAction(io, {
      trust: read.trust,
      github: createOctokitDeployGitHub(octokit, io.event.repo),
      clock: systemClock,
      probeFor: (target) => createVerifyProbe(target, { env: { ...io.env } }),
      secrets: [token, ...secretValues(io.env)],
    });
  },
};

export default verifyMode;
