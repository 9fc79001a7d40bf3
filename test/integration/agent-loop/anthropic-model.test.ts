import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicModel } from "../../../src/adapters/llm/anthropic-model.js";
import { createMemoryLedger } from "../../support/doubles/memory-ledger.js";
import { runAgentLoop } from "../../../src/core/agent-loop/run-agent-loop.js";
import type { Stop } from "../../../src/core/stop/stop.js";
import { FakeClock, ROOMY, recordingTool } from "../../unit/agent-loop/fakes.js";
import type { Answer, FakeAnthropic } from "./fake-anthropic.js";
import { message, startFakeAnthropic, toolUse } from "./fake-anthropic.js";

const API_KEY = "sk-ant-test-0123456789abcdef";
const finish = message("tool_use", [toolUse("toolu_fin", "finish", { summary: "did it" })]);
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function runAgainst(script: readonly Answer[], tools = [recordingTool("read_file", "read")]) {
  server = await startFakeAnthropic(script);
  const model = createAnthropicModel({ apiKey: API_KEY, model: "claude-test", fetch: globalThis.fetch, baseUrl: server.baseUrl });
  const result = await runAgentLoop(
    { task: "item-1", prompt: "fix the bug", system: "be brief", tools, budget: ROOMY, maxTokensPerStep: 1024 },
    { model, ledger: createMemoryLedger(), clock: new FakeClock() },
  );
  return { result, received: server.received };
}

// Every stop_reason over real HTTP: what the loop ends with, and how many requests it took.
const table: { reason: string; script: Answer[]; stop: Partial<Stop> & { kind: Stop["kind"] }; requests: number }[] = [
  { reason: "end_turn (text, no finish)", script: [{ body: message("end_turn", [{ type: "text", text: "Done!" }]) }], stop: { kind: "blocked" }, requests: 1 },
  { reason: "end_turn (empty content)", script: [{ body: message("end_turn", []) }], stop: { kind: "blocked" }, requests: 1 },
  { reason: "refusal", script: [{ body: message("refusal", [{ type: "text", text: "I can't" }]) }], stop: { kind: "blocked", reason: "model refused" }, requests: 1 },
  { reason: "max_tokens", script: [{ body: message("max_tokens", [{ type: "text", text: "trunc" }]) }], stop: { kind: "out_of_budget", limit: "tokens" }, requests: 1 },
  { reason: "model_context_window_exceeded", script: [{ body: message("model_context_window_exceeded", []) }], stop: { kind: "out_of_budget", limit: "tokens" }, requests: 1 },
  { reason: "pause_turn", script: [{ body: message("pause_turn", [{ type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } }]) }, { body: finish }], stop: { kind: "done" }, requests: 2 },
  { reason: "tool_use", script: [{ body: message("tool_use", [toolUse("toolu_1", "read_file", { path: "a.ts" })]) }, { body: finish }], stop: { kind: "done" }, requests: 2 },
  { reason: "tool_use (finish)", script: [{ body: finish }], stop: { kind: "done", reason: "finish called" }, requests: 1 },
];

describe("the Anthropic adapter against a loopback Messages API", () => {
  it.each(table)("stop_reason $reason ends the run as $stop.kind after $requests request(s)", async ({ script, stop, requests }) => {
    const { result, received } = await runAgainst(script);
    expect(result.stop).toMatchObject(stop);
    expect(received).toHaveLength(requests);
    expect(result.usage.steps).toBe(requests);
  });

  it("POSTs /v1/messages with the key, the version, the tools (finish included) and the capped max_tokens", async () => {
    const { received } = await runAgainst([{ body: finish }]);
    const [first] = received;
    expect(first?.method).toBe("POST");
    expect(first?.url).toBe("/v1/messages");
    expect(first?.headers["x-api-key"]).toBe(API_KEY);
    expect(first?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(first?.headers["content-type"]).toBe("application/json");
    expect(first?.body).toMatchObject({ model: "claude-test", max_tokens: 1024, system: "be brief", messages: [{ role: "user", content: [{ type: "text", text: "fix the bug" }] }] });
    expect(first?.body.tools.map((t) => t.name)).toEqual(["read_file", "finish"]);
    expect(first?.body.tools[0]).toHaveProperty("input_schema");
  });

  it("runs the tool and sends back a tool_result block for its tool_use_id", async () => {
    const read = recordingTool("read_file", "read", () => ({ ok: true, content: "export const x = 1;" }));
    const { received } = await runAgainst([{ body: message("tool_use", [toolUse("toolu_1", "read_file", { path: "a.ts" })]) }, { body: finish }], [read]);
    expect(read.seen).toEqual([{ input: { path: "a.ts" }, key: undefined }]);
    expect(received[1]?.body.messages.slice(1)).toEqual([
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.ts" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "export const x = 1;", is_error: false }] },
    ]);
  });

  it("resends a paused turn with the server's blocks exactly as they came", async () => {
    const block = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } };
    const { received } = await runAgainst([{ body: message("pause_turn", [block]) }, { body: finish }]);
    expect(received[1]?.body.messages.at(-1)).toEqual({ role: "assistant", content: [block] });
  });

  it("counts input, cache and output tokens against the budget", async () => {
    const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 5, cache_read_input_tokens: 7 };
    const { result } = await runAgainst([{ body: message("tool_use", [toolUse("toolu_f", "finish", { summary: "s" })], usage) }]);
    expect(result.usage.tokens).toBe(132); // 100 + 5 + 7 input, 20 output
  });

  it.each([
    [429, "rate_limit_error", "retry"],
    [529, "overloaded_error", "retry"],
    [400, "invalid_request_error", "refuse"],
    [401, "authentication_error", "refuse"],
    [418, "teapot", "unclassified"],
  ] as const)("maps HTTP %i (%s) to failed/%s", async (status, type, failure) => {
    const { result } = await runAgainst([{ status, body: { type: "error", error: { type, message: "nope" } } }]);
    expect(result.stop).toEqual({ kind: "failed", failure, reason: `model call failed: HTTP ${status} ${type}: nope` });
  });

  it("never lets the API key reach a stop, even when the server echoes it", async () => {
    const { result } = await runAgainst([{ status: 401, body: { type: "error", error: { type: "authentication_error", message: `bad key ${API_KEY}` } } }]);
    expect(JSON.stringify(result)).not.toContain(API_KEY);
    expect(result.stop).toMatchObject({ reason: "model call failed: HTTP 401 authentication_error: bad key [redacted]" });
  });

  it("answers a 2xx that is not a message as unclassified", async () => {
    const { result } = await runAgainst([{ body: { hello: "world" } }]);
    expect(result.stop).toMatchObject({ kind: "failed", failure: "unclassified" });
  });

  it("gives up on a call that outlives the time left, as a timeout", async () => {
    server = await startFakeAnthropic([{ body: finish, delayMs: 2_000 }]);
    const model = createAnthropicModel({ apiKey: API_KEY, model: "m", fetch: globalThis.fetch, baseUrl: server.baseUrl });
    const reply = await model.complete({ messages: [], tools: [], maxTokens: 10, timeoutMs: 100 });
    expect(reply).toMatchObject({ ok: false, kind: "timeout" });
  });
});

describe("the Anthropic adapter, transport failures", () => {
  it("reports a refused connection as retryable, not as a crash", async () => {
    const closed = await startFakeAnthropic([{ body: {} }]);
    const baseUrl = closed.baseUrl;
    await closed.close();
    const model = createAnthropicModel({ apiKey: API_KEY, model: "m", fetch: globalThis.fetch, baseUrl });
    const reply = await model.complete({ messages: [], tools: [], maxTokens: 10, timeoutMs: 5_000 });
    expect(reply).toMatchObject({ ok: false, kind: "retry" });
    expect(JSON.stringify(reply)).not.toContain(API_KEY);
  });
});
