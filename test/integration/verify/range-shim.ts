/**
 * STOPGAP until test/fake-github serves `GET /repos/{o}/{r}/compare/{basehead}` and
 * `GET /repos/{o}/{r}/commits/{sha}/pulls`: a front server that answers those two from the fake's
 * own state and forwards every other request to the fake untouched. Delete it once the fake has them.
 */
import { createServer, request } from "node:http";
import type { ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";

export interface RangeShim {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the shim in front of `fake`; `fullName` is the one repository it answers ranges for. */
export async function startRangeShim(fake: FakeGitHub, fullName: string): Promise<RangeShim> {
  const prefix = `/repos/${fullName}`;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const repo = fake.repo(fullName);
    const compare = path.startsWith(`${prefix}/compare/`) ? decodeURIComponent(path.slice(`${prefix}/compare/`.length)).split("...") : undefined;
    const pulls = /^\/repos\/[^/]+\/[^/]+\/commits\/([0-9a-f]{40})\/pulls$/.exec(path);
    if (req.method === "GET" && compare !== undefined) {
      const [base = "", head = ""] = compare;
      const inBase = ancestors(repo.commits, base);
      const commits = [...ancestors(repo.commits, head)].filter((sha) => !inBase.has(sha)).reverse();
      return reply(res, { total_commits: commits.length, commits: commits.map((sha) => ({ sha })) });
    }
    if (req.method === "GET" && pulls !== null && path.startsWith(prefix)) {
      const sha = pulls[1] ?? "";
      const found = [...repo.pulls.values()].filter((p) => p.commits.includes(sha));
      return reply(
        res,
        found.map((p) => ({
          number: p.number,
          body: repo.issues.get(p.number)?.body ?? null,
          merged_at: p.mergedAt === null ? null : new Date(p.mergedAt).toISOString(),
        })),
      );
    }
    const upstream = request(`${fake.url}${req.url ?? "/"}`, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function ancestors(commits: ReadonlyMap<string, { parents: string[] }>, from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const sha = stack.pop() ?? "";
    if (seen.has(sha) || !commits.has(sha)) continue;
    seen.add(sha);
    stack.push(...(commits.get(sha)?.parents ?? []));
  }
  return seen;
}

function reply(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}
