import type { ActionEvent, ActionIo } from "../../../src/action/action-io.js";

/** An ActionIo made of plain records: what a mode wrote to outputs, summary, logs, failure. */
export interface RecordingIo extends ActionIo {
  readonly outputs: Record<string, string>;
  readonly summaries: string[];
  readonly logs: string[];
  readonly failures: string[];
  readonly secrets: string[];
  /** Every text the mode emitted, for "never leaks" assertions. */
  everything(): string;
}

/** Builds a recording ActionIo for `inputs` and `event` (defaults: a push to acme/shop). */
export function recordingIo(inputs: Record<string, string>, event: Partial<ActionEvent> = {}, env: Record<string, string> = {}): RecordingIo {
  const outputs: Record<string, string> = {};
  const summaries: string[] = [];
  const logs: string[] = [];
  const failures: string[] = [];
  const secrets: string[] = [];
  const log = (level: string) => (message: string) => logs.push(`${level}: ${message}`);
  return {
    outputs,
    summaries,
    logs,
    failures,
    secrets,
    everything: () => [JSON.stringify(outputs), ...summaries, ...logs, ...failures].join("\n"),
    input: (name) => inputs[name] ?? "",
    setOutput: (name, value) => {
      outputs[name] = value;
    },
    setFailed: (message) => {
      failures.push(message);
    },
    summary: async (markdown) => {
      summaries.push(markdown);
    },
    setSecret: (value) => {
      secrets.push(value);
    },
    log: { info: log("info"), warning: log("warning"), error: log("error"), debug: log("debug") },
    event: {
      name: "push",
      payload: {},
      repo: { owner: "acme", repo: "shop" },
      sha: "0000000000000000000000000000000000000000",
      ref: "refs/heads/main",
      runId: 777,
      serverUrl: "https://github.com",
      ...event,
    },
    env,
  };
}
