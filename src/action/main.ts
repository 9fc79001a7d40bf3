import { readFileSync } from "node:fs";
import * as core from "@actions/core";
import type { ActionEvent, ActionIo } from "./action-io.js";
import { modes } from "./modes.js";
import { readActionEvent } from "./read-action-event.js";
import { secretValues } from "../adapters/local/secret-values.js";
import { redactSecrets } from "../core/redact/redact-secrets.js";

/**
 * Builds the ActionIo from the toolkit and the runner's environment. The only place that touches
 * `@actions/core`. The event is read here, not through `@actions/github`'s `context`, which parses
 * the payload at import time and would crash with a stack trace on a malformed one.
 * Everything a mode writes to the step (outputs, summary, failure, log) is masked with the
 * secrets registered so far: the runner masks its log, not a job summary or an output's value.
 */
function actionIo(event: ActionEvent): ActionIo {
  const secrets = secretValues(process.env);
  const mask = (text: string): string => redactSecrets(text, secrets);
  return {
    input: (name) => core.getInput(name),
    setOutput: (name, value) => core.setOutput(name, mask(value)),
    setFailed: (message) => core.setFailed(mask(message)),
    summary: async (markdown) => {
      await core.summary.addRaw(mask(markdown), true).write();
    },
    setSecret: (value) => {
      secrets.push(value);
      core.setSecret(value);
    },
    log: { info: (m) => core.info(mask(m)), warning: (m) => core.warning(mask(m)), error: (m) => core.error(mask(m)), debug: (m) => core.debug(mask(m)) },
    event,
    env: process.env,
  };
}

/** Entry of the Action: reads `mode` and runs it; a broken environment or any unexpected error fails the step with one message. */
export async function run(): Promise<void> {
  const mode = core.getInput("mode");
  const load = modes[mode];
  if (load === undefined) {
    core.setFailed(`bosun: unknown mode '${mode}'; expected one of: ${Object.keys(modes).join(", ")}`);
    return;
  }
  const read = readActionEvent(process.env, (path) => readFileSync(path, "utf8"));
  if (!read.ok) {
    core.setFailed(`bosun ${mode}: ${read.message}`);
    return;
  }
  const io = actionIo(read.event);
  try {
    await (await load()).run(io);
  } catch (err) {
    io.setFailed(`bosun ${mode}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
