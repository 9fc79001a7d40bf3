import * as core from "@actions/core";
import * as github from "@actions/github";
import type { ActionIo } from "./action-io.js";
import { modes } from "./modes.js";

/** Builds the ActionIo from the toolkit. The only place that touches `@actions/*`. */
function actionIo(): ActionIo {
  // `github.context` reads process.env at import time: read it once, here.
  const ctx = github.context;
  return {
    input: (name) => core.getInput(name),
    setOutput: (name, value) => core.setOutput(name, value),
    setFailed: (message) => core.setFailed(message),
    summary: async (markdown) => {
      await core.summary.addRaw(markdown, true).write();
    },
    setSecret: (value) => core.setSecret(value),
    log: { info: core.info, warning: core.warning, error: core.error, debug: core.debug },
    event: {
      name: ctx.eventName,
      payload: ctx.payload as Record<string, unknown>,
      repo: process.env["GITHUB_REPOSITORY"] ? ctx.repo : { owner: "", repo: "" },
      sha: ctx.sha,
      ref: ctx.ref,
      runId: ctx.runId,
      serverUrl: ctx.serverUrl,
    },
    env: process.env,
  };
}

/** Entry of the Action: reads `mode` and runs it; any unexpected error fails the step with its message. */
export async function run(): Promise<void> {
  const io = actionIo();
  const mode = io.input("mode");
  const load = modes[mode];
  if (load === undefined) {
    io.setFailed(`bosun: unknown mode '${mode}'; expected one of: ${Object.keys(modes).join(", ")}`);
    return;
  }
  try {
    await (await load()).run(io);
  } catch (err) {
    io.setFailed(`bosun ${mode}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
