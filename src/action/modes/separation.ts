import type { ActionIo, ActionMode } from "../action-io.js";
import { integerInput, tokenInput } from "../action-inputs.js";
import { failOnInputError } from "../fail-on-input-error.js";
import { runSeparationAction } from "../separation/run-separation-action.js";
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
    const github = createOctokitGateGitHub({ token, ...io.event.repo, baseUrl: io.env["GITHUB_API_URL"] ?? "https://api.github.com" });
    await runSeparationAction(io, { github, secrets: [token] });
  },
};

export default separationMode;
