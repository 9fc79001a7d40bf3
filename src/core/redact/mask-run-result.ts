import type { RunResult } from "../engine/engine-loop.js";
import { redactSecrets } from "./redact-secrets.js";

/**
 * A run's result with every secret masked in what it says: its stop reason (an agent's final
 * message, a worker's result file), its evidence and its command. Masked once, where the result is
 * made, so that the result file, the claim record, the journal and the terminal all get the same
 * masked text: the journal and terminal once masked a secret that the other two wrote in clear.
 */
export function maskRunResult(result: RunResult, secrets: readonly string[]): RunResult {
  const mask = (text: string): string => redactSecrets(text, secrets);
  const { stop } = result;
  const masked: RunResult = {
    ...result,
    stop: stop.reason === undefined ? stop : { ...stop, reason: mask(stop.reason) },
    ...(result.evidence === undefined ? {} : { evidence: { ...result.evidence, command: mask(result.evidence.command), lines: result.evidence.lines.map(mask) } }),
  };
  return masked;
}
