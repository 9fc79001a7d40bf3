import { createOctokit } from "../../adapters/github/create-octokit.js";
import type { ActionIo, ActionMode } from "../action-io.js";
import { integerInput, tokenInput } from "../action-inputs.js";
import { failOnInputError } from "../fail-on-input-error.js";
import { runSeparationAction } from "../separation/run-separation-action.js";
import { octokitPullsOfCommit } from "../octokit-pulls-of-commit.js";
import { relayedPullRequest } from "../relayed-pull-request.js";
import { createOctokitGateGitHub } from "../../adapters/github/octokit-gate-github.js";

/** The `separation` mode (DESIGN.md, "The Action"): Octokit on GITHUB_API_URL; never touches the PR's code. */
const separationMode: ActionMode = {
  async run(io: ActionIo) {
    // Validated here, before anything is read or posted: a typo must not become the default of 1.
    if (failOnInputError(io, "separation", () => integerInput(io, "required-approvals", { fallback: 1, min: 1, max: 100 })) === undefined) return;
    const token = tokenInput(io);
    if (token === "") {
      io.setFailed("bosun separation: no token: set input 'github-token' to read reviews and post the status");
      return;
    }
    io.setSecret(token);
    const baseUrl = io.env["GITHUB_API_URL"] ?? "https://api.github.com";
    // Reviews reach this trusted workflow through a relay (workflow_run): pull_request_review runs the PR's own workflow file.
    const relayed = await relayedPullRequest(io, octokitPullsOfCommit(createOctokit({ auth: token, baseUrl, userAgent: "bosun-separation" }), io.event.repo));
    if (!relayed.ok) {
      io.log.info(`bosun separation: ${relayed.reason}; nothing to do`);
      return;
    }
    const github = createOctokitGateGitHub({ token, ...io.event.repo, baseUrl });
    await runSeparationAction(relayed.io, { github, secrets: [token] });
  },
};

export default separationMode;
