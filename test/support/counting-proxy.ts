/**
 * An HTTP proxy on 127.0.0.1 between a client (an App replica's Octokit) and the fake GitHub that
 * writes down every request it forwards: who sent it (one listening port per client), method, path,
 * the status it forwarded, and for `POST /graphql` whether the document is a mutation. It relies on
 * neither the fake's accounting nor Bosun's code, so a count taken here checks both. Route templates
 * are named after GitHub's REST reference (`{issue_number}`, `{ref}`, ...), from the path alone.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxiedRequest {
  readonly seq: number;
  /** The client's name given to `open`. */
  readonly client: string;
  readonly method: string;
  readonly path: string;
  /** `METHOD /template`; GraphQL is `POST /graphql (query)` or `POST /graphql (mutation)`. */
  readonly route: string;
  /** The status forwarded to the client (0: the fake did not answer). */
  readonly status: number;
  /** GitHub's secondary-limit kind: GET/HEAD/OPTIONS and GraphQL queries read, everything else writes. */
  readonly mutative: boolean;
  /** When it was answered, by the clock given to the proxy (default the wall clock). */
  readonly at: number;
}

export interface CountingProxy {
  readonly log: readonly ProxiedRequest[];
  /** A base URL for one client, forwarding to the target; its requests are logged under `client`. */
  open(client: string): Promise<string>;
  close(): Promise<void>;
}

/** The parameter named after the collection it follows, as GitHub's REST reference names it. */
const PARAM: Record<string, string> = {
  issues: "issue_number",
  pulls: "pull_number",
  comments: "comment_id",
  runs: "run_id",
  workflows: "workflow_id",
  "check-runs": "check_run_id",
  installations: "installation_id",
  collaborators: "username",
  branches: "branch",
  environments: "environment_name",
  rulesets: "ruleset_id",
  deployments: "deployment_id",
  attempts: "attempt_number",
  statuses: "sha",
};
/** Sub-resources and listings that are words, never an identifier, after a collection. */
const WORDS = new Set(["events", "comments", "labels", "matching-refs", "protection", "access_tokens", "repositories", "dispatches", "permission", "check-runs", "status", "statuses", "pulls", "files", "reviews", "merge", "assignees", "timeline", "lock", "rerun", "cancel", "jobs", "artifacts"]);

/** `/repos/acme/app/issues/12/labels` → `/repos/{owner}/{repo}/issues/{issue_number}/labels`. */
export function routeTemplate(path: string): string {
  const parts = path.split("?")[0]?.split("/").slice(1) ?? [];
  const out: string[] = [];
  let i = 0;
  if (parts[0] === "repos" && parts.length >= 3) {
    out.push("repos", "{owner}", "{repo}");
    i = 3;
  }
  for (; i < parts.length; i++) {
    const seg = decodeURIComponent(parts[i] ?? "");
    const prev = out.at(-1) ?? "";
    const rest = (name: string): void => {
      out.push(`{${name}}`);
      i = parts.length;
    };
    if (prev === "contents") rest("path");
    else if (prev === "matching-refs" || prev === "ref" || (prev === "refs" && out.at(-2) === "git")) rest("ref");
    else if (prev === "commits") out.push(out.at(-2) === "git" ? "{commit_sha}" : "{ref}");
    else if (prev === "labels" && out.at(-3) === "issues") out.push("{name}");
    else if (prev === "compare") rest("basehead");
    else if (PARAM[prev] !== undefined && !WORDS.has(seg)) out.push(`{${PARAM[prev]}}`);
    else out.push(/^\d+$/.test(seg) ? "{id}" : seg);
  }
  return `/${out.join("/")}`;
}

/** Whether a GraphQL request body holds a mutation (the operation it runs, by `operationName` when there are several). */
export function isGraphqlMutation(body: string): boolean {
  let doc: { query?: unknown; operationName?: unknown };
  try {
    doc = JSON.parse(body) as typeof doc;
  } catch {
    return false;
  }
  const query = typeof doc.query === "string" ? doc.query.replace(/#[^\n]*/g, "") : "";
  if (typeof doc.operationName === "string" && doc.operationName !== "") return new RegExp(`\\bmutation\\s+${doc.operationName}\\b`).test(query);
  return /^\s*mutation\b/.test(query);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const HOP = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive", "content-encoding"]);

export function createCountingProxy(target: string, now: () => number = Date.now): CountingProxy {
  const log: ProxiedRequest[] = [];
  const servers: Server[] = [];
  const origin = new URL(target).origin;
  return {
    log,
    async open(client) {
      let self = "";
      const server = createServer((req, res) => {
        void (async () => {
          const body = await readBody(req);
          const method = req.method ?? "GET";
          const path = req.url ?? "/";
          const graphql = method === "POST" && path.split("?")[0] === "/graphql";
          const mutative = graphql ? isGraphqlMutation(body.toString("utf8")) : !["GET", "HEAD", "OPTIONS"].includes(method);
          const route = graphql ? `POST /graphql (${mutative ? "mutation" : "query"})` : `${method} ${routeTemplate(path)}`;
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && !HOP.has(k)) headers[k] = v;
          let status = 0;
          try {
            const answer = await fetch(`${origin}${path}`, { method, headers, ...(body.length > 0 ? { body } : {}) });
            status = answer.status;
            const out: Record<string, string> = {};
            // Pages are followed by their Link header: keep the client on this side of the proxy.
            answer.headers.forEach((v, k) => void (HOP.has(k) ? undefined : (out[k] = k === "link" ? v.split(origin).join(self) : v)));
            const payload = Buffer.from(await answer.arrayBuffer());
            res.writeHead(status, out).end(payload);
          } finally {
            log.push({ seq: log.length + 1, client, method, path, route, status, mutative, at: now() });
          }
        })().catch(() => (res.headersSent ? res.end() : res.writeHead(502).end()));
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      servers.push(server);
      self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return self;
    },
    async close() {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
    },
  };
}
