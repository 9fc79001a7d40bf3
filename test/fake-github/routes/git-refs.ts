/**
 * Git refs: the compare-and-swap primitives Bosun's claims stand on. Create answers 422 when the
 * ref exists; update with `force: false` answers 422 unless it is a fast-forward. Any namespace
 * works (`refs/heads/x`, `refs/bosun/claims/42`).
 */
import { emitRefChange, type RefChange } from "../emit-ref-change.js";
import { recordRefActivity } from "../record-ref-activity.js";
import { HttpError, notFound, validationFailed } from "../http-error.js";
import { isAncestor } from "../git-objects.js";
import { optionalBoolean, requiredString } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import type { FakeState } from "../state.js";
import { refJson } from "../to-json-git.js";

/** `heads/x` or `refs/heads/x` → `refs/heads/x`. */
function fullRef(ref: string): string {
  return ref.startsWith("refs/") ? ref : `refs/${ref}`;
}

/** The webhooks of a ref change, and GitHub's record of who made it. */
function changed(state: FakeState, ctx: RouteContext, change: RefChange): void {
  emitRefChange(state, ctx, ctx.repo, change);
  recordRefActivity(state, ctx.repo, change, ctx.login);
}

function getRef(state: FakeState, ctx: RouteContext) {
  const ref = fullRef(ctx.params.ref ?? "");
  const sha = ctx.repo.refs.get(ref);
  if (sha === undefined) throw notFound();
  return { status: 200, body: refJson(state, ctx.repo, ref, sha) };
}

function listMatchingRefs(state: FakeState, ctx: RouteContext) {
  const prefix = fullRef(ctx.params.ref ?? "");
  const refs = [...ctx.repo.refs.entries()]
    .filter(([name]) => name.startsWith(prefix))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, sha]) => refJson(state, ctx.repo, name, sha));
  return { status: 200, body: refs };
}

function createRef(state: FakeState, ctx: RouteContext) {
  const ref = requiredString(ctx.body, "ref");
  const sha = requiredString(ctx.body, "sha");
  if (!ref.startsWith("refs/") || ref.split("/").length < 3) {
    throw validationFailed("Reference name must start with 'refs/' and have at least two slashes.");
  }
  if (!ctx.repo.commits.has(sha)) throw validationFailed("Object does not exist");
  if (ctx.repo.refs.has(ref)) throw validationFailed("Reference already exists");
  ctx.repo.refs.set(ref, sha);
  changed(state, ctx, { ref, before: undefined, after: sha, forced: false });
  return { status: 201, body: refJson(state, ctx.repo, ref, sha) };
}

function updateRef(state: FakeState, ctx: RouteContext) {
  const ref = fullRef(ctx.params.ref ?? "");
  const sha = requiredString(ctx.body, "sha");
  const force = optionalBoolean(ctx.body, "force") ?? false;
  const current = ctx.repo.refs.get(ref);
  if (current === undefined) throw validationFailed("Reference does not exist");
  if (!ctx.repo.commits.has(sha)) throw validationFailed("Object does not exist");
  if (!force && !isAncestor(ctx.repo, current, sha)) throw validationFailed("Update is not a fast forward");
  ctx.repo.refs.set(ref, sha);
  changed(state, ctx, { ref, before: current, after: sha, forced: force && !isAncestor(ctx.repo, current, sha) });
  return { status: 200, body: refJson(state, ctx.repo, ref, sha) };
}

function deleteRef(state: FakeState, ctx: RouteContext) {
  const ref = fullRef(ctx.params.ref ?? "");
  const current = ctx.repo.refs.get(ref);
  if (current === undefined) throw new HttpError(422, "Reference does not exist");
  ctx.repo.refs.delete(ref);
  changed(state, ctx, { ref, before: current, after: undefined, forced: false });
  return { status: 204 };
}

export const gitRefRoutes: Route[] = [
  { method: "GET", pattern: "/repos/{owner}/{repo}/git/ref/{ref}", kind: "read", handler: getRef },
  { method: "GET", pattern: "/repos/{owner}/{repo}/git/matching-refs/{ref}", kind: "read", handler: listMatchingRefs },
  { method: "POST", pattern: "/repos/{owner}/{repo}/git/refs", kind: "create", access: "write", handler: createRef },
  { method: "PATCH", pattern: "/repos/{owner}/{repo}/git/refs/{ref}", kind: "write", access: "write", handler: updateRef },
  { method: "DELETE", pattern: "/repos/{owner}/{repo}/git/refs/{ref}", kind: "write", access: "write", handler: deleteRef },
];
