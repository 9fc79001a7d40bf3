import type { ActionIo, ActionMode } from "../action-io.js";
import { runSeparationAction } from "../separation/run-separation-action.js";
import { createOctokitGateGitHub } from "../../adapters/github/octokit-gate-github.js";

/** The `separation` mode (DESIGN.md, "The Action"): Octokit on GITHUB_API_URL; never touches the PR's code. */
const separationMode: ActionMode = {
  async run(io: ActionIo) {
    const token = io.input("github-token").trim() || io.input("token").trim() || (io.env["GITHUB_TOKEN"] ?? "");
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
