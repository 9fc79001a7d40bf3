/** What the GitHub importer needs of an issue: plain data, so the mapping is testable without HTTP. */
export interface GithubIssueFacts {
  readonly number: number;
  readonly createdAt: string;
  readonly labels: readonly string[];
  readonly body: string | null;
  readonly milestoneDueOn?: string | null;
}

/** One timeline event, reduced to what a trace uses. */
export interface GithubTimelineEvent {
  readonly event: string;
  readonly createdAt: string;
  readonly label?: string;
}

/** A line of the trace JSONL `bosun trace github` writes: beads' issues.jsonl shape plus claimed_at, pool, due. */
export interface GithubTraceRecord {
  readonly id: string;
  readonly created_at: string;
  readonly claimed_at?: string;
  readonly closed_at?: string;
  readonly priority?: number;
  readonly issue_type: string;
  readonly pool?: string;
  readonly due?: string;
  readonly dependencies: readonly { readonly issue_id: string; readonly depends_on_id: string; readonly type: "blocks" }[];
}

const READY = new Set(["bosun:ready", "bosun:queued"]);

/** Blockers named in a brief's `blocked_by: [...]` (inline list), issue references as "#N". */
function blockedBy(body: string | null): string[] {
  const m = body === null ? null : /^\s*blocked_by:\s*\[([^\]]*)\]/m.exec(body);
  if (m === null) return [];
  return (m[1] ?? "")
    .split(",")
    .map((s) => s.trim().replace(/^["']|["']$/g, ""))
    .filter((s) => s !== "")
    .map((s) => (/^\d+$/.test(s) ? `#${s}` : s));
}

/**
 * Maps one issue and its timeline to a trace record: arrival when it was first labelled
 * bosun:ready or bosun:queued, claim at the first bosun:claimed after that, landing at the first
 * bosun:done or close after that. Undefined for an issue that never entered the queue.
 */
export function githubTimelineRecord(issue: GithubIssueFacts, events: readonly GithubTimelineEvent[]): GithubTraceRecord | undefined {
  const sorted = [...events].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  const ready = sorted.find((e) => e.event === "labeled" && e.label !== undefined && READY.has(e.label));
  if (ready === undefined) return undefined;
  const after = sorted.filter((e) => e.createdAt >= ready.createdAt);
  const claim = after.find((e) => e.event === "labeled" && e.label === "bosun:claimed");
  const landed = after.find((e) => (e.event === "labeled" && e.label === "bosun:done") || e.event === "closed");
  const band = issue.labels.map((l) => /^P([0-4])$/.exec(l)?.[1]).find((b) => b !== undefined);
  const pool = issue.labels.map((l) => /^pool\/(.+)$/.exec(l)?.[1]).find((p) => p !== undefined);
  const kind = issue.labels.find((l) => ["bug", "enhancement", "feature", "documentation", "chore", "task"].includes(l)) ?? "issue";
  const id = `#${issue.number}`;
  return {
    id,
    created_at: ready.createdAt,
    ...(claim === undefined ? {} : { claimed_at: claim.createdAt }),
    ...(landed === undefined ? {} : { closed_at: landed.createdAt }),
    ...(band === undefined ? {} : { priority: Number(band) }),
    issue_type: kind,
    ...(pool === undefined ? {} : { pool }),
    ...(issue.milestoneDueOn === undefined || issue.milestoneDueOn === null ? {} : { due: issue.milestoneDueOn }),
    dependencies: blockedBy(issue.body).map((b) => ({ issue_id: id, depends_on_id: b, type: "blocks" as const })),
  };
}
