import { createOctokit } from "./create-octokit.js";
import type { GithubTimelineEvent, GithubTraceRecord } from "../../core/replay/github-timeline-record.js";
import { githubTimelineRecord } from "../../core/replay/github-timeline-record.js";

export interface GithubTraceOptions {
  readonly owner: string;
  readonly repo: string;
  readonly baseUrl: string;
  readonly token?: string;
  readonly fetch?: typeof globalThis.fetch;
  /** Called after each issue's timeline is read: (read, total). */
  readonly onProgress?: (read: number, total: number) => void;
}

export interface GithubTraceResult {
  readonly records: GithubTraceRecord[];
  /** Issues read (pull requests excluded) and those that never entered the queue. */
  readonly issues: number;
  readonly neverQueued: number;
}

const labelName = (l: string | { name?: string | null } | null | undefined): string | undefined => (typeof l === "string" ? l : l?.name ?? undefined);

/**
 * Reads a repository's issue history into trace records: every issue (open and closed, pull
 * requests excluded), then each issue's timeline, one issue at a time to stay far from
 * secondary rate limits. Errors propagate: a half-read history is not a trace.
 */
export async function readGithubTrace(options: GithubTraceOptions): Promise<GithubTraceResult> {
  const octokit = createOctokit({
    baseUrl: options.baseUrl,
    ...(options.token === undefined ? {} : { auth: options.token }),
    ...(options.fetch === undefined ? {} : { request: { fetch: options.fetch } }),
  });
  const where = { owner: options.owner, repo: options.repo };
  const issues = (await octokit.paginate(octokit.rest.issues.listForRepo, { ...where, state: "all", per_page: 100 })).filter((i) => i.pull_request === undefined);
  const records: GithubTraceRecord[] = [];
  let neverQueued = 0;
  for (const [k, issue] of issues.entries()) {
    const timeline = await octokit.paginate(octokit.rest.issues.listEventsForTimeline, { ...where, issue_number: issue.number, per_page: 100 });
    const events: GithubTimelineEvent[] = [];
    for (const raw of timeline as unknown as Record<string, unknown>[]) {
      const event = typeof raw["event"] === "string" ? raw["event"] : undefined;
      const createdAt = typeof raw["created_at"] === "string" ? raw["created_at"] : undefined;
      if (event === undefined || createdAt === undefined) continue;
      const label = labelName(raw["label"] as { name?: string } | undefined);
      events.push({ event, createdAt, ...(label === undefined ? {} : { label }) });
    }
    const record = githubTimelineRecord(
      {
        number: issue.number,
        createdAt: issue.created_at,
        labels: issue.labels.map(labelName).filter((l): l is string => l !== undefined),
        body: issue.body ?? null,
        milestoneDueOn: issue.milestone?.due_on ?? null,
      },
      events,
    );
    if (record === undefined) neverQueued++;
    else records.push(record);
    options.onProgress?.(k + 1, issues.length);
  }
  return { records, issues: issues.length, neverQueued };
}
