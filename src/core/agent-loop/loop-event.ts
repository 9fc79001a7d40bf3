import type { ToolEffect } from "./agent-tool.js";

/**
 * What happened in a run, in order, for logs and tests. Tool inputs and outputs are left out on
 * purpose: they may carry secrets, and the transcript already holds them for whoever needs them.
 */
export type LoopEvent =
  | { readonly type: "step"; readonly step: number; readonly stopReason: string | null; readonly tokens: number }
  | {
      readonly type: "tool";
      readonly name: string;
      readonly effect: ToolEffect | "finish" | "unknown";
      /** `replayed`: a write answered from the ledger; `withheld`: an irreversible tool, not run. */
      readonly outcome: "ok" | "error" | "replayed" | "withheld";
      readonly key?: string;
    };
