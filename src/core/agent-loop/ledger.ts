import type { ToolResult } from "./agent-tool.js";

/**
 * Where the first result of each write is kept, by idempotency key, so a repeated or replayed write
 * is answered without running again. Only successful writes are recorded: a failed one may be retried.
 */
export interface Ledger {
  get(key: string): Promise<ToolResult | undefined>;
  put(key: string, result: ToolResult): Promise<void>;
}
