import type { BosunConfig } from "../../core/config/bosun-config.js";
import { statusOf } from "../../adapters/github/status-of.js";
import { repoKey } from "../app-octokit.js";
import { octokitIntakeGitHub } from "./octokit-intake-github.js";
import { runIntake, type IntakeSite } from "./run-intake.js";

/** Labels that say an approval was already taken in (or the item has moved on since). */
const TAKEN_IN = ["queued", "hold", "invalidBrief", "claimed", "done", "needsHuman"] as const;

/** At most this many pages of `bosun:ready` issues per sweep (100 each). */
const MAX_PAGES = 10;

interface ListedIssue {
  readonly number: number;
  readonly updated_at: string;
  readonly labels: ReadonlyArray<string | { name?: string }>;
  readonly pull_request?: unknown;
}

/**
 * Takes in approvals whose webhook never arrived (or arrived while a read was stale): every open
 * issue labelled `bosun:ready` that carries none of the labels an intake leaves (queued, hold,
 * invalid brief) nor an outcome, is run through the same intake as if the `labeled` delivery had
 * come now, in the name of whoever GitHub's issue events say added the label — so the intake's
 * own checks (the approver has write access; the brief parses) decide, exactly as for a webhook.
 *
 * The listing is conditional per repository (ETag), so a sweep that finds nothing new costs one
 * 304, which GitHub does not count against the rate limit; an issue already examined at its
 * current `updated_at` is not examined again.
 */
export function createApprovalSweeper(): { sweep(site: IntakeSite, botLogin: string, config: BosunConfig): Promise<{ approvals: number[] }> } {
  const etags = new Map<string, { etag: string; issues: readonly ListedIssue[] }>();
  /** `repo#n` → the `updated_at` at which the intake last ran through for it: unchanged since, it is not run again. */
  const examined = new Map<string, string>();
  return {
    async sweep(site, botLogin, config) {
      const L = config.labels;
      const key = `${repoKey(site.repo)}:${L.ready}`;
      const issues = await listReady(site, L.ready, etags, key);
      const taken = new Set(TAKEN_IN.map((k) => L[k].toLowerCase()));
      const approvals: number[] = [];
      for (const issue of issues) {
        if (issue.pull_request !== undefined) continue;
        const labels = issue.labels.map((l) => (typeof l === "string" ? l : (l.name ?? "")).toLowerCase());
        if (labels.some((l) => taken.has(l))) continue;
        // Looked at since its last change (an approver without write access, say): nothing to do.
        const seen = `${repoKey(site.repo)}#${issue.number}`;
        if (examined.get(seen) === issue.updated_at) continue;
        const approval = await octokitIntakeGitHub(site.octokit, site.repo).lastLabelEvent(issue.number, L.ready);
        const approver = approval?.event === "labeled" ? approval.actor : undefined;
        if (approver !== undefined && approver.toLowerCase() !== botLogin.toLowerCase()) {
          await runIntake(site, issue.number, { kind: "labeled", label: L.ready, sender: approver, senderCanWrite: false }, botLogin, config);
          approvals.push(issue.number);
        }
        // Only once the intake went through: one that failed is tried again by the next sweep.
        examined.set(seen, issue.updated_at);
      }
      return { approvals };
    },
  };
}

/** Open issues carrying the label, oldest first; each page asked with its last ETag, its last answer again on a 304. */
async function listReady(site: IntakeSite, label: string, etags: Map<string, { etag: string; issues: readonly ListedIssue[] }>, key: string): Promise<readonly ListedIssue[]> {
  const out: ListedIssue[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const cached = etags.get(`${key}:${page}`);
    let data: readonly ListedIssue[];
    try {
      const response = await site.octokit.rest.issues.listForRepo({ ...site.repo, labels: label, state: "open", sort: "created", direction: "asc", per_page: 100, page, headers: cached === undefined ? {} : { "if-none-match": cached.etag } });
      data = response.data as ListedIssue[];
      if (response.headers.etag !== undefined) etags.set(`${key}:${page}`, { etag: response.headers.etag, issues: data });
    } catch (err) {
      if (statusOf(err) !== 304 || cached === undefined) throw err;
      data = cached.issues;
    }
    out.push(...data);
    if (data.length < 100) break;
  }
  return out;
}
