/** The shape of one row of the route table, and of what a handler receives and returns. */
import type { FakeState, Identity, Permission, RepoState } from "./state.js";

/**
 * How GitHub counts the request: a read, a write, or a content-creating write (the ones its
 * secondary rate limit of ~80/min and 500/h applies to).
 */
export type RouteKind = "read" | "write" | "create";

/** An event a handler asks the webhook emitter to send once the request has applied. */
export interface EmittedEvent {
  event: string;
  action?: string;
  repo: RepoState;
  sender: string;
  /** Payload parts as JSON (issue, label, comment, pull_request, ...), built only when a hook listens. */
  fields: () => Record<string, unknown>;
}

export interface RouteContext {
  method: string;
  /** Path parameters, already URL-decoded; multi-segment ones keep their slashes. */
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  identity: Identity;
  /** Login the identity acts as, e.g. `octocat` or `bosun[bot]`. */
  login: string;
  /** The repository named by `{owner}/{repo}`, when the route has them. */
  repo: RepoState;
  /** The `Accept` header (media types such as `application/vnd.github.raw`). */
  accept: string;
  /** Records a page-shift fault moves this page by (0 or absent: none); see `paginate`. */
  pageShift?: number;
  /** The request's own URL (path and query), for pagination links. */
  url: URL;
  emit(event: Omit<EmittedEvent, "repo" | "sender"> & { repo?: RepoState; sender?: string }): void;
  /**
   * Call before changing a repository the path does not name (GraphQL names it in the body), so a
   * stale-read fault can serve it as it was; writes to `{owner}/{repo}` are snapshotted already.
   */
  beforeWrite(repo: RepoState): void;
}

export interface Reply {
  status: number;
  /** How accounting counts this request when the route's kind depends on the body (GraphQL: a query reads, a mutation writes). */
  kind?: RouteKind;
  body?: unknown;
  /** A non-JSON body (raw media types); wins over `body`. */
  text?: { contentType: string; content: string };
  headers?: Record<string, string>;
}

export type Handler = (state: FakeState, ctx: RouteContext) => Reply;

export interface Route {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** GitHub's path template, exactly as in its OpenAPI description. */
  pattern: string;
  kind: RouteKind;
  /** Least permission on the repository the caller needs; default: read for reads, write otherwise. */
  access?: Permission;
  /** Only a GitHub App (installation or JWT) may call it, as with check runs. */
  appOnly?: boolean;
  handler: Handler;
}

/** Template → `{method} {pattern}`, the key accounting and faults use. */
export function routeKey(route: Pick<Route, "method" | "pattern">): string {
  return `${route.method} ${route.pattern}`;
}
