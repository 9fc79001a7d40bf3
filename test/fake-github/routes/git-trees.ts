/**
 * Git trees: create a tree from a base tree and entries, as a client commits files through the
 * API (no git push). Trees here are flat path → content maps with the executable paths beside
 * them (the sha is git's): an entry with `content` writes a file with its mode, one with
 * `sha: null` deletes it, one with a blob `sha` is refused (the fake has no blobs API), and modes
 * other than a regular or executable file are refused.
 */
import { validationFailed } from "../http-error.js";
import { blobSha, EMPTY_TREE, executablesOf, putTree } from "../git-objects.js";
import { optionalString } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import type { FakeState } from "../state.js";
import { repoUrl } from "../to-json-user-repo.js";

function createTree(state: FakeState, ctx: RouteContext) {
  const baseTree = optionalString(ctx.body, "base_tree");
  const entries = ctx.body["tree"];
  if (!Array.isArray(entries)) throw validationFailed("Invalid request.\n\nNo subschema in \"anyOf\" matched.\n\"tree\" wasn't supplied.");
  if (baseTree !== undefined && baseTree !== EMPTY_TREE && !ctx.repo.trees.has(baseTree)) throw validationFailed("base_tree is not a valid tree oid");
  const files = new Map(baseTree === undefined ? [] : (ctx.repo.trees.get(baseTree) ?? new Map<string, string>()));
  const executables = new Set(baseTree === undefined ? [] : executablesOf(ctx.repo, baseTree));
  for (const raw of entries as unknown[]) {
    const e = (raw ?? {}) as Record<string, unknown>;
    const path = typeof e["path"] === "string" ? e["path"] : "";
    if (path === "" || path.startsWith("/") || path.split("/").some((p) => p === "" || p === "." || p === "..")) throw validationFailed(`tree.path contains a malformed path component: ${path}`);
    if (e["mode"] !== "100644" && e["mode"] !== "100755") throw validationFailed(`tree.mode ${String(e["mode"])} is not supported by the fake (regular files only)`);
    if (e["type"] !== undefined && e["type"] !== "blob") throw validationFailed(`tree.type must be blob, got ${String(e["type"])}`);
    if ("content" in e && typeof e["content"] === "string") {
      files.set(path, e["content"]);
      if (e["mode"] === "100755") executables.add(path);
      else executables.delete(path);
    } else if ("sha" in e && e["sha"] === null) {
      // Deleting a path that is not there is an error on GitHub too.
      if (!files.delete(path)) throw validationFailed(`GitRPC::BadObjectState: ${path} is not in the base tree`);
      executables.delete(path);
    } else throw validationFailed("tree entries need `content` (or `sha: null` to delete): the fake has no blobs API");
  }
  const sha = putTree(ctx.repo, files, executables);
  const base = repoUrl(state, ctx.repo);
  return {
    status: 201,
    body: {
      sha,
      url: `${base}/git/trees/${sha}`,
      truncated: false,
      tree: [...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, content]) => {
        const blob = blobSha(content);
        return { path, mode: executables.has(path) ? "100755" : "100644", type: "blob", sha: blob, size: Buffer.byteLength(content), url: `${base}/git/blobs/${blob}` };
      }),
    },
  };
}

export const gitTreeRoutes: Route[] = [{ method: "POST", pattern: "/repos/{owner}/{repo}/git/trees", kind: "write", access: "write", handler: createTree }];
