import type { ActionEvent } from "./action-io.js";

/** The event, or one message saying which variable is wrong and how. */
export type ReadEvent = { readonly ok: true; readonly event: ActionEvent } | { readonly ok: false; readonly message: string };

const REPOSITORY = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/;

/**
 * Reads the event the runner describes (GITHUB_EVENT_PATH, GITHUB_EVENT_NAME, GITHUB_REPOSITORY,
 * GITHUB_SHA, GITHUB_REF, GITHUB_RUN_ID, GITHUB_SERVER_URL) and checks it, so a broken runner or a
 * hand-made environment gives one clear error instead of a stack trace at import or a request to
 * `/repos///pulls/1`. `readFile` answers the file's text or throws.
 */
export function readActionEvent(env: Readonly<Record<string, string | undefined>>, readFile: (path: string) => string): ReadEvent {
  const repository = env["GITHUB_REPOSITORY"] ?? "";
  const repo = REPOSITORY.exec(repository);
  if (repo === null) {
    return { ok: false, message: repository === "" ? "GITHUB_REPOSITORY is not set: run inside GitHub Actions, or set it to owner/name" : `GITHUB_REPOSITORY '${repository}' is not owner/name` };
  }
  let payload: Record<string, unknown> = {};
  const path = env["GITHUB_EVENT_PATH"] ?? "";
  if (path !== "") {
    let text: string;
    try {
      text = readFile(path);
    } catch (err) {
      return { ok: false, message: `GITHUB_EVENT_PATH '${path}' cannot be read: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      return { ok: false, message: `GITHUB_EVENT_PATH '${path}' is not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { ok: false, message: `GITHUB_EVENT_PATH '${path}' holds ${parsed === null ? "null" : Array.isArray(parsed) ? "an array" : `a ${typeof parsed}`}, not the event's JSON object` };
    payload = parsed as Record<string, unknown>;
  }
  const runId = env["GITHUB_RUN_ID"] ?? "";
  if (runId !== "" && !/^\d+$/.test(runId)) return { ok: false, message: `GITHUB_RUN_ID '${runId}' is not a number` };
  return {
    ok: true,
    event: {
      name: env["GITHUB_EVENT_NAME"] ?? "",
      payload,
      repo: { owner: repo[1] ?? "", repo: repo[2] ?? "" },
      sha: env["GITHUB_SHA"] ?? "",
      ref: env["GITHUB_REF"] ?? "",
      runId: runId === "" ? 0 : Number(runId),
      serverUrl: (env["GITHUB_SERVER_URL"] ?? "").replace(/\/+$/, "") || "https://github.com",
    },
  };
}
