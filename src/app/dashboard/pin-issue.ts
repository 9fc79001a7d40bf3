import { statusOf } from "../../adapters/github/status-of.js";
import type { AppOctokit } from "../app-octokit.js";

const PIN_ISSUE = `mutation ($issueId: ID!) { pinIssue(input: {issueId: $issueId}) { issue { id } } }`;

/** Why a pin failed, fit for a log: GraphQL error types (`UNPROCESSABLE`, `FORBIDDEN`, ...) or the HTTP status, never a message. */
function reasonOf(error: unknown): string {
  const errors = (error as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors)) {
    const types = errors.map((e) => (e as { type?: unknown } | null)?.type).filter((t): t is string => typeof t === "string");
    return types.length > 0 ? types.join(", ") : "GraphQL error";
  }
  const status = statusOf(error);
  return status === undefined ? "request failed" : `HTTP ${status}`;
}

/**
 * Pins an issue above its repository's issue list (GraphQL `pinIssue`: needs write access, and a
 * repository pins at most 3 issues). Never throws: an unpinned issue works the same.
 */
export async function pinIssue(octokit: AppOctokit, issueNodeId: string): Promise<{ pinned: true } | { pinned: false; reason: string }> {
  try {
    await octokit.graphql(PIN_ISSUE, { issueId: issueNodeId });
    return { pinned: true };
  } catch (error) {
    return { pinned: false, reason: reasonOf(error) };
  }
}
