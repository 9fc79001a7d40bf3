import { describe, expect, it } from "vitest";
import { readGithubTrace } from "../../../src/adapters/github/github-trace-source.js";
import { buildTrace } from "../../../src/core/replay/build-trace.js";
import { githubTimelineRecord } from "../../../src/core/replay/github-timeline-record.js";
import { importBeadsJsonl } from "../../../src/core/replay/import-beads-jsonl.js";

const issue = (number: number, labels: string[], body: string | null = null) => ({ number, createdAt: "2026-01-01T00:00:00Z", labels, body });
const label = (name: string, at: string) => ({ event: "labeled", label: name, createdAt: at });

describe("githubTimelineRecord", () => {
  it("takes arrival at bosun:ready, the claim at bosun:claimed, landing at close; band, pool and blockers from the issue", () => {
    const r = githubTimelineRecord(issue(7, ["P1", "pool/gpu", "bug"], "```yaml\nblocked_by: [3, \"#4\", other-brief]\n```"), [
      { event: "closed", createdAt: "2026-01-03T00:00:00Z" },
      label("bosun:ready", "2026-01-01T10:00:00Z"),
      label("bosun:claimed", "2026-01-02T00:00:00Z"),
    ]);
    expect(r).toEqual({
      id: "#7",
      created_at: "2026-01-01T10:00:00Z",
      claimed_at: "2026-01-02T00:00:00Z",
      closed_at: "2026-01-03T00:00:00Z",
      priority: 1,
      issue_type: "bug",
      pool: "gpu",
      dependencies: ["#3", "#4", "other-brief"].map((d) => ({ issue_id: "#7", depends_on_id: d, type: "blocks" })),
    });
  });

  it("leaves out an issue that never entered the queue, and ignores a close before it did", () => {
    expect(githubTimelineRecord(issue(1, []), [{ event: "closed", createdAt: "2026-01-02T00:00:00Z" }])).toBeUndefined();
    const r = githubTimelineRecord(issue(2, []), [{ event: "closed", createdAt: "2026-01-01T01:00:00Z" }, { event: "reopened", createdAt: "2026-01-01T02:00:00Z" }, label("bosun:queued", "2026-01-01T03:00:00Z"), label("bosun:done", "2026-01-01T05:00:00Z")]);
    expect(r?.closed_at).toBe("2026-01-01T05:00:00Z");
  });
});

describe("readGithubTrace over a real Octokit", () => {
  // The shared fake GitHub (test/fake-github) has no timeline route yet, so this serves the two
  // endpoints the importer calls, with pagination, through Octokit's injectable fetch.
  it("pages through issues and timelines, skips pull requests, and yields a replayable trace", async () => {
    const calls: string[] = [];
    const issues = Array.from({ length: 3 }, (_, k) => ({ number: k + 1, created_at: "2026-01-01T00:00:00Z", labels: [{ name: `P${k}` }], body: null, milestone: null }));
    const pr = { number: 9, created_at: "2026-01-01T00:00:00Z", labels: [], body: null, pull_request: { url: "x" } };
    const fetch = async (input: string | URL | Request): Promise<Response> => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      calls.push(`${url.pathname}${url.search}`);
      const json = (data: unknown, link?: string) => new Response(JSON.stringify(data), { status: 200, headers: { "content-type": "application/json", ...(link === undefined ? {} : { link }) } });
      if (url.pathname === "/repos/o/r/issues") {
        return url.searchParams.get("page") === "2" ? json([issues[2], pr]) : json([issues[0], issues[1]], `<http://api.test/repos/o/r/issues?state=all&per_page=100&page=2>; rel="next"`);
      }
      const n = Number(/issues\/(\d+)\/timeline/.exec(url.pathname)?.[1]);
      if (n === 3) return json([{ event: "commented", created_at: "2026-01-01T01:00:00Z" }]);
      return json([
        { event: "labeled", label: { name: "bosun:ready" }, created_at: `2026-01-0${n}T01:00:00Z` },
        { event: "labeled", label: { name: "bosun:claimed" }, created_at: `2026-01-0${n}T02:00:00Z` },
        { event: "closed", created_at: `2026-01-0${n}T04:00:00Z` },
      ]);
    };
    const result = await readGithubTrace({ owner: "o", repo: "r", baseUrl: "http://api.test", token: "t", fetch });
    expect(result.issues).toBe(3);
    expect(result.neverQueued).toBe(1);
    expect(calls.filter((c) => c.includes("/timeline"))).toHaveLength(3);
    const text = result.records.map((r) => JSON.stringify(r)).join("\n");
    const trace = buildTrace([importBeadsJsonl(text, "gh.jsonl")]);
    expect(trace.items.map((i) => [i.id, i.band, i.duration / 3_600_000, i.durationSource])).toEqual([
      ["#1", 0, 2, "observed"],
      ["#2", 1, 2, "observed"],
    ]);
  });
});
