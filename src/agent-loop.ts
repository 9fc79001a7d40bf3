/**
 * The bounded agent loop as a library entry (`bosun/agent-loop`, docs/agent-loop.md): the pure loop,
 * its port types, and the two adapters the documented example uses. The package's `exports` refuse
 * deep `bosun/lib/...` paths, so this is the one way in.
 */
export { AgentLoopConfigError, runAgentLoop, type AgentClock, type AgentLoopConfig, type AgentLoopPorts, type AgentRunResult } from "./core/agent-loop/run-agent-loop.js";
export { FINISH_TOOL_NAME, type AgentTool, type ToolContext, type ToolEffect, type ToolResult } from "./core/agent-loop/agent-tool.js";
export type { Ledger } from "./core/agent-loop/ledger.js";
export type { LoopEvent } from "./core/agent-loop/loop-event.js";
export type { ContentBlock, Message, Model, ModelReply, ModelRequest, ModelResponse, TokenUsage, ToolSpec } from "./core/agent-loop/model-port.js";
export { createAnthropicModel, type AnthropicModelOptions } from "./adapters/llm/anthropic-model.js";
export { createFileLedger, LedgerCorruptError } from "./adapters/local/file-ledger.js";
