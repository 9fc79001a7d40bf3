import { canonicalJson } from "../util/canonical-json.js";
import { sha256Hex } from "../util/sha256.js";

/**
 * The idempotency key of a write: SHA-256 (hex) of the canonical JSON of {task, tool, arguments},
 * keys sorted at every depth, so the same call in a retried step gets the same key whatever order
 * the model wrote the arguments in.
 */
export function idempotencyKey(task: string, tool: string, args: unknown): string {
  return sha256Hex(canonicalJson({ task, tool, arguments: args }));
}
