import type { ActionIo } from "./action-io.js";
import { ActionInputError } from "./action-inputs.js";

/**
 * Runs `read` (a mode's input parsing); a bad input fails the step with one message naming it and
 * returns undefined, so nothing is read from or written to GitHub on a misconfigured run.
 */
export function failOnInputError<T>(io: ActionIo, mode: string, read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof ActionInputError)) throw err;
    io.setFailed(`bosun ${mode}: ${err.message}`);
    return undefined;
  }
}
