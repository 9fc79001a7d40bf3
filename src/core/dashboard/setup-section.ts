/** The dashboard's Setup section as plain data: what `bosun doctor` finds wrong, as far as the App can read. */
import type { SetupFinding } from "../setup/setup-finding.js";

export interface SetupSection {
  /** `owner/name`, for the doctor command line it suggests. */
  readonly repo: string;
  readonly problems: readonly { readonly check: string; readonly subject?: string; readonly message: string; readonly fix: string }[];
  /** Checks the App could not make with its own permissions (environment secrets, for one). */
  readonly couldNotCheck: readonly string[];
}

/** The section from doctor's findings: problems in doctor's order, unreadable checks named once each. */
export function setupSectionOf(repo: string, findings: readonly SetupFinding[]): SetupSection {
  return {
    repo,
    problems: findings.filter((f) => f.status === "problem").map((f) => ({ check: f.check, ...(f.subject === undefined ? {} : { subject: f.subject }), message: f.message, fix: f.fix ?? "" })),
    couldNotCheck: [...new Set(findings.filter((f) => f.status === "could-not-check").map((f) => f.check))],
  };
}
