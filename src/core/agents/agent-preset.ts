import type { Brief } from "../brief/brief.js";
import type { Stop } from "../stop/stop.js";

/** The agents Bosun can hand a brief to in their own terms; `command` is any program (`--run CMD`). */
export const AGENT_NAMES = ["claude-code", "codex", "aider", "openhands", "command"] as const;
export type AgentName = (typeof AGENT_NAMES)[number];
export type PresetName = Exclude<AgentName, "command">;

/** One run of an agent on one claimed item, as a preset sees it: plain data, paths already chosen. */
export interface AgentTask {
  readonly brief: Brief;
  /** The rendered prompt, also written to `promptFile` for agents that read a file. */
  readonly prompt: string;
  readonly promptFile: string;
  /** Where the model declares how it finished ($BOSUN_RESULT): the one file outside the tree it may write. */
  readonly resultFile: string;
  /** A folder outside the working tree for the agent's own history files. */
  readonly runDir: string;
  /** Tracked files the brief allows the agent to edit (aider's file list). */
  readonly allowedFiles: readonly string[];
  /** The run's money cap in US dollars (its reservation), for an agent that can enforce one itself. */
  readonly usd?: number;
}

/** How to start the agent: an executable found on PATH, its arguments, and non-secret settings. */
export interface AgentInvocation {
  readonly executable: string;
  readonly args: readonly string[];
  /** Settings the preset derives from the brief (never credentials: those are picked by name). */
  readonly env: Readonly<Record<string, string>>;
}

/** What the agent's structured output says: its typed stop and what it reported spending. */
export interface AgentReport {
  readonly stop: Stop;
  readonly tokens?: number;
  readonly usd?: number;
  /** One line for the evidence: what was read and from where. */
  readonly summary: string;
}

/** The agent's run as the dispatcher saw it. */
export interface AgentOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly exit: number | null;
}

/** Which of the brief's limits the agent itself enforces; the rest rely on Bosun and the gate. */
export interface Guardrails {
  readonly paths: "enforced" | "gate-only";
  readonly commands: "enforced" | "gate-only";
  readonly steps: "enforced" | "gate-only";
}

/**
 * A preset: how one agent gets a brief (arguments, files, settings), which credentials it is
 * handed by name, and how its structured output reads back into a stop and a cost.
 */
export interface AgentPreset {
  readonly name: PresetName;
  readonly executable: string;
  /** Credential variables handed over by name when set (the agent's model keys); nothing else secret. */
  readonly credentials: readonly string[];
  /** Non-secret variables passed through when set (model names, endpoints). */
  readonly settings: readonly string[];
  readonly guardrails: Guardrails;
  /**
   * True when the model can write $BOSUN_RESULT, so `done` needs its explicit finish there (an
   * agent that just stops is not done); false for an agent that can write no such file (aider).
   */
  readonly explicitFinish: boolean;
  /** Whether the agent stops itself at a money cap it is handed (`enforced`), or only reports what it spent afterwards. */
  readonly money: "enforced" | "reported" | "not-reported";
  invocation(task: AgentTask): AgentInvocation;
  readOutput(output: AgentOutput): AgentReport;
}
