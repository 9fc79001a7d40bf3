import { readFile } from "node:fs/promises";
import { createOctokit } from "../../adapters/github/create-octokit.js";
import type { ActionIo, ActionMode } from "../action-io.js";
import type { AcceptanceResult } from "../acceptance-result.js";
import { readAcceptanceResult } from "../acceptance-result.js";
import { tokenInput } from "../action-inputs.js";
import { failOnInputError } from "../fail-on-input-error.js";
import { canonicalGateIo, readGateInputs } from "../gate-inputs.js";
import { runGateAction } from "../gate/run-gate-action.js";
import type { CheckRunWriter } from "../../ports/gate-github.js";
import { octokitPullsOfCommit } from "../octokit-pulls-of-commit.js";
import { withRunPullRequests } from "../relayed-pull-request.js";
import { createOctokitGateGitHub } from "../../adapters/github/octokit-gate-github.js";
import { acceptanceEnv } from "../../adapters/local/acceptance-env.js";
import { runAcceptance } from "../../adapters/local/run-acceptance.js";
import { secretValues } from "../../adapters/local/secret-values.js";
import { redactValues } from "../../core/redact/redact-secrets.js";

/** Test seam: the fetch the reviewer's HTTP providers use. */
export interface GateModeDeps {
  readonly fetch?: typeof globalThis.fetch;
}

/** Builds the `gate` mode (DESIGN.md, "The Action"); Octokit on GITHUB_API_URL (GHES, or the fake in tests). */
export function createGateMode(deps: GateModeDeps = {}): ActionMode {
  return {
    async run(io: ActionIo) {
      const inputs = failOnInputError(io, "gate", () => readGateInputs(io));
      if (inputs === undefined) return;
      const token = tokenInput(io);
      if (token === "") {
        io.setFailed("bosun gate: no token: set input 'github-token' to read the pull request and post the check run");
        return;
      }
      const apiKey = io.input("reviewer-api-key");
      for (const secret of [token, apiKey]) if (secret !== "") io.setSecret(secret);
      const secrets = [token, apiKey, ...secretValues(io.env)].filter((s) => s.length >= 4);
      const baseUrl = io.env["GITHUB_API_URL"] ?? "https://api.github.com";
      const github = createOctokitGateGitHub({ token, ...io.event.repo, baseUrl });
      // A fork's workflow_run lists no pull request: find it from the run's head SHA through the API.
      const judged = await withRunPullRequests(canonicalGateIo(io, inputs), octokitPullsOfCommit(createOctokit({ auth: token, baseUrl, userAgent: "bosun-gate" }), io.event.repo));
      await runGateAction(judged, {
        github: { ...github, ...redactingWriter(github, secrets) },
        // The command sees the allowlisted environment only, whatever the caller computed.
        runAcceptance: (options) => runAcceptance({ ...options, env: acceptanceEnv(io.env, inputs.passEnv), secrets }),
        fetch: deps.fetch ?? globalThis.fetch,
        secrets,
        ...(inputs.acceptanceResult === undefined ? {} : { handedAcceptance: () => handedAcceptance(io, inputs.acceptanceResult ?? "") }),
      });
    },
  };
}

/**
 * The result a job without write access produced (input `acceptance-result`), read as hostile data.
 * Why a result is refused goes to the log: the check run then says only that it could not check.
 */
async function handedAcceptance(io: ActionIo, path: string): Promise<AcceptanceResult> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    text = "";
    io.log.warning(`bosun gate: the acceptance result '${path}' cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const result = readAcceptanceResult(text, `'${path}'`);
  if (result.run.kind === "not-run") io.log.warning(`bosun gate: ${result.run.reason}`);
  return result;
}

/** The check-run writer with every string masked before it is serialized into a request. */
function redactingWriter(writer: CheckRunWriter, secrets: readonly string[]): CheckRunWriter {
  return {
    createCheckRun: (input) => writer.createCheckRun(redactValues(input, secrets)),
    addAnnotations: (id, input) => writer.addAnnotations(id, redactValues(input, secrets)),
  };
}

export default createGateMode();
