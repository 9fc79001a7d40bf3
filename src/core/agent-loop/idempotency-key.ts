import { canonicalJson } from "../util/canonical-json.js";
import { sha256Hex } from "../util/sha256.js";

/**
 * The idempotency key of a write: SHA-256 (hex) of the canonical JSON of {task, tool, arguments},
 * keys sorted at every depth, so the same call in a retried step gets the same key whatever order
 * the model wrote the arguments in — plus, from the second time the same call is made in one
 * run, its `occurrence` (1, 2, …). A retry replays the run's calls in order and meets each
 * occurrence again, so it is answered from the ledger; a legitimate later repeat (write A, write
 * B, write A again) is a new occurrence and really runs. The first occurrence keeps the key
 * without the field, so ledgers written before stay valid.
 */
export function idempotencyKey(task: string, tool: string, args: unknown, occurrence = 0): string {
  return sha256Hex(canonicalJson(occurrence === 0 ? { task, tool, arguments: args } : { task, tool, arguments: args, occurrence }));
}
