/**
 * `actions/upload-artifact` and `actions/download-artifact`: files copied between jobs of a run, or
 * from another run (`run-id`, which needs `github-token` with `actions: read` on the repository, as
 * the action checks through the API). A missing artifact fails the download step. Since v4 an
 * artifact is immutable and its name unique in the run: a second upload of a name fails (409) unless
 * `overwrite: true` deletes the first (https://github.com/actions/upload-artifact#breaking-changes),
 * which is what two matrix legs uploading one name meet.
 */
import { isAbsolute, join } from "node:path";
import { apiGet, failed, type StepContext, type StepOutcome } from "./step-context.js";

export async function uploadArtifactStep(ctx: StepContext): Promise<StepOutcome> {
  const name = ctx.inputs["name"] || "artifact";
  const paths = (ctx.inputs["path"] ?? "").split("\n").map((p) => p.trim()).filter((p) => p !== "").map((p) => (isAbsolute(p) ? p : join(ctx.workspace, p)));
  if (paths.length === 0) return failed("actions/upload-artifact: Input required and not supplied: path");
  if (ctx.runtime.artifacts.names(ctx.run.id).includes(name)) {
    if (ctx.inputs["overwrite"] !== "true") return failed("Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run");
    ctx.runtime.artifacts.remove(ctx.run.id, name);
    ctx.log(`Artifact '${name}' deleted`);
  }
  const { count, id } = ctx.runtime.artifacts.upload(ctx.run.id, name, paths);
  if (count === 0 || id === undefined) {
    const mode = ctx.inputs["if-no-files-found"] ?? "warn";
    if (mode === "error") return failed(`actions/upload-artifact: No files were found with the provided path: ${paths.join(", ")}. No artifacts will be uploaded.`);
    ctx.log(`warning: No files were found with the provided path: ${paths.join(", ")}. No artifacts will be uploaded.`);
    return { ok: true, outputs: {} };
  }
  ctx.log(`uploaded ${count} file(s) as ${name}`);
  return { ok: true, outputs: { "artifact-id": String(id) } };
}

/**
 * By `name`, or by `artifact-ids` (one id: its files straight into `path`, as download-artifact does
 * for a single artifact; src/download-artifact.ts of actions/download-artifact v8). An id names
 * exactly the upload that made it: a same-named artifact someone uploaded since is not it.
 */
export async function downloadArtifactStep(ctx: StepContext): Promise<StepOutcome> {
  const name = ctx.inputs["name"] ?? "";
  const ids = ctx.inputs["artifact-ids"] ?? "";
  if (name !== "" && ids !== "") return failed("Inputs 'name' and 'artifact-ids' cannot be used together. Please specify only one.");
  if (ids !== "") return downloadById(ctx, ids);
  if (name === "") return failed("actions/download-artifact: the player downloads one artifact by name or by artifact-ids (neither was given)");
  const into = ctx.inputs["path"] ? (isAbsolute(ctx.inputs["path"]) ? ctx.inputs["path"] : join(ctx.workspace, ctx.inputs["path"])) : ctx.workspace;
  const runIdText = ctx.inputs["run-id"] ?? "";
  let runId = ctx.run.id;
  if (runIdText !== "") {
    if (!/^\d+$/.test(runIdText)) return failed(`actions/download-artifact: run-id '${runIdText}' is not a number`);
    const token = ctx.inputs["github-token"] ?? "";
    if (token === "") return failed("actions/download-artifact: github-token is required to download from another run");
    const repo = ctx.run.repo;
    const seen = await apiGet(ctx, `/repos/${repo.owner}/${repo.name}/actions/runs/${runIdText}`, token);
    if (seen.status !== 200) return failed(`actions/download-artifact: run ${runIdText}: ${seen.status} ${String(seen.body["message"] ?? "")}`);
    runId = Number(runIdText);
  }
  if (!ctx.runtime.artifacts.download(runId, name, into)) return failed(`actions/download-artifact: Unable to download artifact(s): Artifact not found for name: ${name}`);
  ctx.log(`downloaded ${name} of run ${runId} into ${into}`);
  return { ok: true, outputs: { "download-path": into } };
}

function downloadById(ctx: StepContext, ids: string): StepOutcome {
  const list = ids.split(",").map((id) => id.trim()).filter((id) => id !== "");
  if (list.length === 0) return failed("No valid artifact IDs provided in 'artifact-ids' input");
  if (list.length > 1) return failed("actions/download-artifact: the player downloads one artifact id at a time");
  const id = Number.parseInt(list[0] as string, 10);
  if (Number.isNaN(id)) return failed(`Invalid artifact ID: '${list[0] ?? ""}'. Must be a number.`);
  const into = ctx.inputs["path"] ? (isAbsolute(ctx.inputs["path"]) ? ctx.inputs["path"] : join(ctx.workspace, ctx.inputs["path"])) : ctx.workspace;
  if (!ctx.runtime.artifacts.downloadById(ctx.run.id, id, into)) return failed("None of the provided artifact IDs were found");
  ctx.log(`downloaded artifact ${id} into ${into}`);
  return { ok: true, outputs: { "download-path": into } };
}
