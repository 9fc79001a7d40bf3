/**
 * What a tool does to the world, which decides how the loop treats it: `read` runs freely, `write`
 * runs once per idempotency key (the ledger answers repeats), `irreversible` never runs inside the
 * loop: it ends the run as `blocked` so a human decides.
 */
export type ToolEffect = "read" | "write" | "irreversible";

/** A tool's answer, fed back to the model; `ok: false` counts as a tool error against the budget. */
export type ToolResult = { readonly ok: true; readonly content: string } | { readonly ok: false; readonly error: string };

/** What the loop hands a tool besides its input. */
export interface ToolContext {
  /**
   * For `write` tools: SHA-256 of the canonical {task, tool, arguments}. The same on every retry of
   * the same call, so a tool that records its effects by this key can refuse to apply one twice.
   */
  readonly idempotencyKey?: string;
  /** Milliseconds left of the run's wall clock when the call started: past it, the loop stops waiting. */
  readonly timeoutMs?: number;
}

/** A tool the model may call. `inputSchema` is the JSON Schema the model sees; `run` validates. */
export interface AgentTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly effect: ToolEffect;
  /** Never called by the loop for `irreversible` tools. Throwing counts as a tool error. */
  run(input: unknown, context: ToolContext): Promise<ToolResult>;
}

/** The name of the built-in tool that ends a run as `done`; no user tool may take it. */
export const FINISH_TOOL_NAME = "finish";

/** How the finish tool is described to the model. Its `summary` is kept, never trusted as evidence. */
export const FINISH_TOOL_SPEC = {
  name: FINISH_TOOL_NAME,
  description:
    "Call this once, and only when the task is complete. It ends your work; nothing else ends it as done. " +
    "Give a one-paragraph summary of what you changed.",
  inputSchema: {
    type: "object",
    properties: { summary: { type: "string", description: "What you changed, in one paragraph." } },
    required: ["summary"],
  },
} as const;
