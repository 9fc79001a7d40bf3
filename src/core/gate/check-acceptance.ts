import type { CheckResult } from "./check-result.js";
import { checkResult } from "./check-result.js";
import { formatDuration } from "../brief/duration.js";

/** What running the acceptance command came to; `tail` is the last lines of output, secrets already redacted. */
export type AcceptanceRun =
  | { readonly kind: "exited"; readonly command: string; readonly exitCode: number; readonly ms: number; readonly tail: string }
  | { readonly kind: "timed-out"; readonly command: string; readonly timeoutSeconds: number; readonly tail: string }
  | { readonly kind: "killed"; readonly command: string; readonly signal: string; readonly tail: string }
  | { readonly kind: "not-run"; readonly command: string; readonly reason: string };

/** The acceptance check: exit 0 passes; a non-zero exit, a signal or the timeout fails; not running it cannot check. */
export function checkAcceptance(run: AcceptanceRun): CheckResult {
  const tail = "tail" in run && run.tail.length > 0 ? `\n${run.tail}` : "";
  switch (run.kind) {
    case "exited":
      return checkResult("acceptance", run.exitCode === 0 ? "passed" : "failed", `\`${run.command}\` exited ${run.exitCode} after ${(run.ms / 1000).toFixed(1)}s${tail}`);
    case "timed-out":
      return checkResult("acceptance", "failed", `\`${run.command}\` did not finish within its timeout of ${formatDuration(run.timeoutSeconds)}; its process group was killed${tail}`);
    case "killed":
      return checkResult("acceptance", "failed", `\`${run.command}\` was killed by ${run.signal}${tail}`);
    case "not-run":
      return checkResult("acceptance", "could-not-check", `\`${run.command}\` was not run: ${run.reason}`);
  }
}
