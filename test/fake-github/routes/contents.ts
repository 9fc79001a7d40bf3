/** Repository contents at a ref (`?ref=` branch, tag or sha; default branch otherwise), base64. */
import { notFound } from "../http-error.js";
import { blobSha, filesAt } from "../git-objects.js";
import type { Route, RouteContext } from "../route.js";
import type { FakeState } from "../state.js";
import { repoHtmlUrl, repoUrl } from "../to-json-user-repo.js";

function entry(state: FakeState, ctx: RouteContext, ref: string, path: string, content: string | undefined) {
  const url = `${repoUrl(state, ctx.repo)}/contents/${path}?ref=${encodeURIComponent(ref)}`;
  const sha = content === undefined ? blobSha(`dir:${path}`) : blobSha(content);
  const html = `${repoHtmlUrl(state, ctx.repo)}/${content === undefined ? "tree" : "blob"}/${ref}/${path}`;
  const gitUrl = `${repoUrl(state, ctx.repo)}/git/${content === undefined ? "trees" : "blobs"}/${sha}`;
  return {
    type: content === undefined ? "dir" : "file",
    name: path.split("/").pop() ?? path,
    path,
    sha,
    size: content === undefined ? 0 : Buffer.byteLength(content),
    url,
    html_url: html,
    git_url: gitUrl,
    download_url: content === undefined ? null : `${state.baseUrl}/raw/${ctx.repo.owner}/${ctx.repo.name}/${ref}/${path}`,
    _links: { self: url, git: gitUrl, html },
  };
}

function getContent(state: FakeState, ctx: RouteContext) {
  const ref = ctx.query.get("ref") ?? ctx.repo.defaultBranch;
  const files = filesAt(ctx.repo, ref);
  if (files === undefined) throw notFound();
  const path = (ctx.params.path ?? "").replace(/^\/+|\/+$/g, "");
  const content = files.get(path);
  if (content !== undefined && /vnd\.github(\.v3)?\.raw/.test(ctx.accept)) {
    // Probot's config plugin asks for the raw media type.
    return { status: 200, text: { contentType: "application/vnd.github.raw; charset=utf-8", content } };
  }
  if (content !== undefined) {
    return {
      status: 200,
      body: { ...entry(state, ctx, ref, path, content), content: chunked(Buffer.from(content).toString("base64")), encoding: "base64" },
    };
  }
  // A directory: list its direct children.
  const prefix = path === "" ? "" : `${path}/`;
  const children = new Map<string, string | undefined>();
  for (const [file, text] of files) {
    if (!file.startsWith(prefix)) continue;
    const rest = file.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash < 0) children.set(file, text);
    else children.set(prefix + rest.slice(0, slash), undefined);
  }
  if (children.size === 0) throw notFound();
  return { status: 200, body: [...children].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, text]) => entry(state, ctx, ref, p, text)) };
}

/** GitHub wraps base64 content at 60 characters. */
function chunked(base64: string): string {
  return (base64.match(/.{1,60}/g) ?? [""]).join("\n") + "\n";
}

export const contentRoutes: Route[] = [{ method: "GET", pattern: "/repos/{owner}/{repo}/contents/{path}", kind: "read", handler: getContent }];
