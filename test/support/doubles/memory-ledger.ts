import type { ToolResult } from "../../../src/core/agent-loop/agent-tool.js";
import type { Ledger } from "../../../src/core/agent-loop/ledger.js";

/** The in-memory ledger: a Map, plus every call recorded as a string (`get k → miss`, `put k`). */
export interface MemoryLedger extends Ledger {
  readonly log: readonly string[];
  readonly entries: ReadonlyMap<string, ToolResult>;
}

/** An in-memory ledger for tests and dry runs; a first put wins, as in the file ledger. */
export function createMemoryLedger(initial: Iterable<readonly [string, ToolResult]> = []): MemoryLedger {
  const entries = new Map<string, ToolResult>(initial);
  const log: string[] = [];
  return {
    log,
    entries,
    get(key) {
      const found = entries.get(key);
      log.push(`get ${key.slice(0, 12)} → ${found === undefined ? "miss" : "hit"}`);
      return Promise.resolve(found);
    },
    put(key, result) {
      log.push(`put ${key.slice(0, 12)}`);
      if (!entries.has(key)) entries.set(key, result);
      return Promise.resolve();
    },
  };
}
