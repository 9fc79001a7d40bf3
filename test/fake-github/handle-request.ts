/** One HTTP request through the fake: route, authenticate, fault, authorize, handle, account. */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Accounting } from "./accounting.js";
import { authenticate, hasPermission, loginOf, routeScope, scopeAllows } from "./authenticate.js";
import type { Webhooks } from "./create-webhooks.js";
import type { Faults, ResponseFault } from "./faults.js";
import { DOCS_URL, HttpError, notFound } from "./http-error.js";
import type { Matcher } from "./match-route.js";
import { routeKey, type EmittedEvent, type Reply, type Route, type RouteContext } from "./route.js";
import { repoKey, type FakeState, type Identity, type RepoState } from "./state.js";

export interface RequestDeps {
  state: FakeState;
  matcher: Matcher;
  faults: Faults;
  accounting: Accounting;
  webhooks: Webhooks;
  /** Repository snapshots served to GETs while a stale-read window is open. */
  staleWindows: Map<string, { snapshot: RepoState; openedAt: number; reads: number }>;
  /**
   * For lagging reads: per repository, oldest first, the repository as it was just before the first
   * write at each moment `at` (so the state as of time T is the first entry with `at` > T, or the
   * current state when there is none). Kept only while a `lagMs` rule is armed, pruned past it.
   */
  history: Map<string, Array<{ at: number; snapshot: RepoState }>>;
}

/** The repository as it was at `target` (by the fake's clock), or undefined when it has not changed since. */
function versionAt(history: ReadonlyArray<{ at: number; snapshot: RepoState }> | undefined, target: number): RepoState | undefined {
  return history?.find((h) => h.at > target)?.snapshot;
}

/** Stands in for `ctx.repo` on routes without `{owner}/{repo}`: touching it is a bug in the route. */
const NO_REPO = new Proxy({} as RepoState, {
  get() {
    throw new Error("this route has no {owner}/{repo}");
  },
});

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseBody(raw: string): Record<string, unknown> {
  if (raw.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  } catch {
    throw new HttpError(400, "Problems parsing JSON");
  }
}

function faultReply(fault: ResponseFault): Reply {
  switch (fault.kind) {
    case "error":
      return { status: fault.status ?? 502, body: { message: fault.status === 404 ? "Not Found" : fault.status === 503 ? "Service Unavailable" : "Server Error", documentation_url: DOCS_URL } };
    case "spurious-422":
      return { status: 422, body: { message: fault.message ?? "Reference update failed", documentation_url: DOCS_URL, status: "422" } };
    case "secondary-rate-limit":
      return {
        status: fault.status ?? 403,
        headers: { "retry-after": String(fault.retryAfter ?? 60) },
        body: {
          message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID FAKE:0000.",
          documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
        },
      };
  }
}

/** Refuses a request the identity may not make; 404 hides a private repository as GitHub does. */
function authorize(route: Route, identity: Identity, login: string, repo: RepoState | undefined): void {
  const need = route.access ?? (route.kind === "read" ? "read" : "write");
  if (route.appOnly === true && identity.kind !== "bot" && identity.kind !== "app") {
    throw new HttpError(403, "You must authenticate via a GitHub App.");
  }
  if (need === "none" || repo === undefined) return;
  if (identity.kind === "app") throw new HttpError(401, "A JSON web token could not be used for this endpoint; use an installation token.");
  if (identity.kind === "anonymous") {
    if (repo.private) throw notFound();
    if (route.kind !== "read" || need !== "read") throw new HttpError(401, "Requires authentication");
    return;
  }
  if (hasPermission(repo, login, need)) {
    // An installation token is also bounded by the permissions it was minted with; a public
    // repository stays readable to any token (a job with `permissions: {}` still checks it out).
    if (scopeAllows(identity, routeScope(route.pattern), route.kind === "read" ? "read" : "write") || (route.kind === "read" && !repo.private)) return;
    throw new HttpError(403, "Resource not accessible by integration");
  }
  if (!hasPermission(repo, login, "read")) throw notFound();
  throw new HttpError(403, identity.kind === "bot" ? "Resource not accessible by integration" : "Resource not accessible by personal access token");
}

function etagOf(body: unknown): string {
  return `W/"${createHash("sha1").update(JSON.stringify(body)).digest("hex")}"`;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((h) => h.trim() === "*" || h.trim().replace(/^W\//, "") === bare);
}

/** Handles one request end to end; never throws. */
export async function handleRequest(deps: RequestDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { state, matcher, faults, accounting, webhooks } = deps;
  const method = req.method ?? "GET";
  const url = new URL(req.url ?? "/", state.baseUrl);
  const time = state.clock.now();
  let route: Route | undefined;
  let login: string | null = null;
  let faultName: string | null = null;
  let reply: Reply;
  try {
    const raw = await readBody(req);
    const matched = matcher.match(method, url.pathname);
    if (matched === undefined) throw notFound();
    route = matched.route;
    const key = routeKey(route);
    const identity = authenticate(state, req.headers.authorization);
    login = identity.kind === "anonymous" ? null : loginOf(identity);
    const decision = faults.decide(key, login, raw);
    if (decision.latencyMs > 0) await new Promise((r) => setTimeout(r, decision.latencyMs));
    const body = parseBody(raw);
    const { owner, repo: repoName } = matched.params;
    const rkey = owner !== undefined && repoName !== undefined ? repoKey(owner, repoName) : undefined;
    const repo = rkey === undefined ? undefined : state.repos.get(rkey);
    if (rkey !== undefined && repo === undefined) throw notFound();
    authorize(route, identity, login ?? "", repo);
    if (decision.response !== undefined && !decision.response.willApply) {
      faultName = decision.response.kind;
      reply = faultReply(decision.response);
    } else {
      let view = state;
      const window = rkey === undefined ? undefined : deps.staleWindows.get(rkey);
      const history = rkey === undefined ? undefined : deps.history.get(rkey);
      const lagged = method === "GET" && history !== undefined ? faults.staleRule(key, login, true, (r) => versionAt(history, time - (r.lagMs ?? 0)) !== undefined) : undefined;
      const lagView = lagged === undefined ? undefined : versionAt(history, time - (lagged.lagMs ?? 0));
      // A GraphQL query names its repositories in its body: a lagging rule aimed at `POST /graphql`
      // serves every repository as it was `lagMs` ago (mutations are never stale).
      const query = (body as { query?: unknown } | undefined)?.query;
      const graphqlRead = method === "POST" && key === "POST /graphql" && typeof query === "string" && !/^\s*mutation\b/.test(query);
      const versionsAt = (target: number): Map<string, RepoState> => {
        const out = new Map<string, RepoState>();
        for (const [k, h] of deps.history) {
          const v = versionAt(h, target);
          if (v !== undefined) out.set(k, v);
        }
        return out;
      };
      const graphqlLag = graphqlRead ? faults.staleRule(key, login, true, (r) => versionsAt(time - (r.lagMs ?? 0)).size > 0) : undefined;
      if (graphqlLag !== undefined) {
        faultName = "stale-read";
        view = { ...state, repos: new Map([...state.repos, ...versionsAt(time - (graphqlLag.lagMs ?? 0))]) };
      } else if (lagView !== undefined && rkey !== undefined) {
        faultName = "stale-read";
        view = { ...state, repos: new Map(state.repos).set(rkey, lagView) };
      } else if (method === "GET" && window !== undefined && rkey !== undefined) {
        const rule = faults.staleRule(key, login);
        const requests = rule?.requests ?? (rule?.ms === undefined ? 1 : Number.POSITIVE_INFINITY);
        if (rule !== undefined && (rule.ms === undefined || time - window.openedAt < rule.ms) && window.reads < requests) {
          window.reads++;
          faultName = "stale-read";
          view = { ...state, repos: new Map(state.repos).set(rkey, window.snapshot) };
        }
      }
      // Repositories as they were before this request wrote them, for stale reads after it.
      const before = new Map<string, RepoState>();
      const beforeWrite = (target: RepoState): void => {
        const key = repoKey(target.owner, target.name);
        if (faults.staleArmed() && !before.has(key)) before.set(key, structuredClone(target));
        const lag = faults.lagArmed();
        if (lag > 0) {
          const kept = (deps.history.get(key) ?? []).filter((h) => h.at > time - lag);
          if (kept.at(-1)?.at !== time) kept.push({ at: time, snapshot: structuredClone(target) });
          deps.history.set(key, kept);
        }
      };
      if (method !== "GET" && repo !== undefined) beforeWrite(repo);
      const events: EmittedEvent[] = [];
      const ctx: RouteContext = {
        method,
        params: matched.params,
        query: url.searchParams,
        body,
        identity,
        login: login ?? "",
        repo: repo === undefined ? NO_REPO : view.repos.get(rkey as string) ?? repo,
        accept: req.headers.accept ?? "",
        pageShift: method === "GET" && Number(url.searchParams.get("page") ?? 1) > 1 ? faults.pageShift(key, login) : 0,
        url,
        emit(e) {
          const eventRepo = e.repo ?? repo;
          if (eventRepo === undefined || !webhooks.wants(e.event)) return;
          const fields = e.fields();
          events.push({ ...e, repo: eventRepo, sender: e.sender ?? login ?? "ghost", fields: () => fields });
        },
        beforeWrite,
      };
      reply = route.handler(view, ctx);
      if (reply.status < 400) {
        for (const [key, snapshot] of before) deps.staleWindows.set(key, { snapshot, openedAt: time, reads: 0 });
      }
      webhooks.enqueue(events);
      if (decision.response !== undefined) {
        faultName = decision.response.kind;
        reply = faultReply(decision.response);
      }
    }
  } catch (error) {
    if (error instanceof HttpError) reply = { status: error.status, body: error.body(), headers: error.headers };
    else reply = { status: 500, body: { message: `fake-github: ${error instanceof Error ? error.stack ?? error.message : String(error)}`, documentation_url: DOCS_URL } };
  }
  send(req, res, reply, login);
  accounting.record({
    method,
    path: url.pathname,
    route: route === undefined ? null : routeKey(route),
    kind: reply.kind ?? route?.kind ?? null,
    status: res.statusCode,
    login,
    time,
    fault: faultName,
  });
}

let requestCounter = 0;

function send(req: IncomingMessage, res: ServerResponse, reply: Reply, login: string | null): void {
  const headers: Record<string, string> = {
    "x-github-request-id": `FAKE:${(++requestCounter).toString(16).toUpperCase()}`,
    "x-github-api-version-selected": "2022-11-28",
    "x-ratelimit-limit": "5000",
    "x-ratelimit-remaining": "4999",
    "x-ratelimit-used": "1",
    "x-ratelimit-resource": "core",
    "x-ratelimit-reset": "1767229200",
    ...(login === null ? {} : { "x-oauth-scopes": "" }),
    ...reply.headers,
  };
  if (reply.status === 200 && req.method === "GET" && (reply.body !== undefined || reply.text !== undefined)) {
    const etag = etagOf(reply.text ?? reply.body);
    headers.etag = etag;
    if (matchesEtag(req.headers["if-none-match"], etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
  }
  if (reply.text !== undefined) {
    res.writeHead(reply.status, { ...headers, "content-type": reply.text.contentType, "content-length": String(Buffer.byteLength(reply.text.content)) });
    res.end(reply.text.content);
    return;
  }
  if (reply.body === undefined || reply.status === 204) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, { ...headers, "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}
