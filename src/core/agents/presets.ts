import type { AgentName, AgentPreset, PresetName } from "./agent-preset.js";
import { AGENT_NAMES } from "./agent-preset.js";
import { aiderPreset } from "./aider-preset.js";
import { claudeCodePreset } from "./claude-code-preset.js";
import { codexPreset } from "./codex-preset.js";
import { openhandsPreset } from "./openhands-preset.js";

export const PRESETS: Readonly<Record<PresetName, AgentPreset>> = {
  "claude-code": claudeCodePreset,
  codex: codexPreset,
  aider: aiderPreset,
  openhands: openhandsPreset,
};

/** The agent named `name`, or undefined when no agent has that name. */
export function agentByName(name: string): AgentName | undefined {
  return (AGENT_NAMES as readonly string[]).includes(name) ? (name as AgentName) : undefined;
}
