import type { ActionIo } from "../../../src/action/action-io.js";

/** An ActionIo over plain data, recording outputs, summaries, failures and log lines. */
export function memoryActionIo(input: { inputs?: Record<string, string>; eventName: string; payload: Record<string, unknown>; env?: Record<string, string | undefined>; event?: Partial<Pick<ActionIo["event"], "sha" | "runId">> }) {
  const outputs: Record<string, string> = {};
  const summaries: string[] = [];
  const failures: string[] = [];
  const logs: string[] = [];
  const secrets: string[] = [];
  const io: ActionIo = {
    input: (name) => input.inputs?.[name] ?? "",
    setOutput: (name, value) => void (outputs[name] = value),
    setFailed: (message) => void failures.push(message),
    summary: async (markdown) => void summaries.push(markdown),
    setSecret: (value) => void secrets.push(value),
    log: { info: (m) => logs.push(m), warning: (m) => logs.push(`warning: ${m}`), error: (m) => logs.push(`error: ${m}`), debug: () => {} },
    event: { name: input.eventName, payload: input.payload, repo: { owner: "acme", repo: "app" }, sha: input.event?.sha ?? "", ref: "", runId: input.event?.runId ?? 42, serverUrl: "https://github.com" },
    env: input.env ?? {},
  };
  return { io, outputs, summaries, failures, logs, secrets };
}
