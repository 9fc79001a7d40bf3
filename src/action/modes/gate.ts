import type { ActionIo, ActionMode } from "../action-io.js";
import { runGateAction } from "../gate/run-gate-action.js";
import { createOctokitGateGitHub } from "../../adapters/github/octokit-gate-github.js";
import { runAcceptance } from "../../adapters/local/run-acceptance.js";
import { secretValues } from "../../adapters/local/secret-values.js";

/** Test seam: the fetch the reviewer's HTTP providers use. */
export interface GateModeDeps {
  readonly fetch?: typeof globalThis.fetch;
}

/** Builds the `gate` mode (DESIGN.md, "The Action"); Octokit on GITHUB_API_URL (GHES, or the fake in tests). */
export function createGateMode(deps: GateModeDeps = {}): ActionMode {
  return {
    async run(io: ActionIo) {
      const token = io.input("github-token").trim() || io.input("token").trim() || (io.env["GITHUB_TOKEN"] ?? "");
      if (token === "") {
        io.setFailed("bosun gate: no token: set input 'github-token' to read the pull request and post the check run");
        return;
      }
      const apiKey = io.input("reviewer-api-key");
      for (const secret of [token, apiKey]) if (secret !== "") io.setSecret(secret);
      const github = createOctokitGateGitHub({ token, ...io.event.repo, baseUrl: io.env["GITHUB_API_URL"] ?? "https://api.github.com" });
      await runGateAction(io, { github, runAcceptance, fetch: deps.fetch ?? globalThis.fetch, secrets: [token, apiKey, ...secretValues(io.env)].filter((s) => s.length >= 4) });
    },
  };
}

export default createGateMode();
