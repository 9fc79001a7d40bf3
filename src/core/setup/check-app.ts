/** Is the Bosun App installed on the repository, with every permission app.yml asks for? */
import type { SetupFacts } from "./setup-facts.js";
import { couldNotCheck, ok, problem, refusal, type SetupFinding } from "./setup-finding.js";

const RANK: Readonly<Record<string, number>> = { read: 1, write: 2, admin: 3 };

/**
 * Permissions app.yml asks for that a working setup can do without: `workflows` only lets the
 * onboarding pull request add workflow files (without it they are left for `bosun init`).
 */
const OPTIONAL: Readonly<Record<string, string>> = { workflows: "without it the onboarding pull request leaves the workflows out" };

const INSTALLATION_NEEDS = "give doctor the App's id and private key (--app-id, --app-key): GitHub shows a repository's installation only to the App itself";

/** `app-installed` and `app-permissions`, against the permissions app.yml asks for. */
export function checkApp(facts: SetupFacts, wanted: Readonly<Record<string, string>>): SetupFinding[] {
  const read = facts.installation;
  if (!read.ok) {
    const { message, fix } = refusal("the App's installation", read, INSTALLATION_NEEDS);
    return [couldNotCheck("app-installed", message, fix), couldNotCheck("app-permissions", "the installation's permissions were not read (see app-installed)", fix)];
  }
  const installation = read.value;
  if (installation === null) {
    const fix = `install the App on ${facts.repo}: the App's page → Install App → choose the repository (or add it to an existing installation's repositories)`;
    return [problem("app-installed", `the App is not installed on ${facts.repo}`, fix), couldNotCheck("app-permissions", "no installation to read permissions from", fix)];
  }
  const name = `the App ${installation.appSlug} (id ${installation.appId})`;
  const findings: SetupFinding[] = [
    installation.suspended ? problem("app-installed", `${name} is installed but suspended: it receives no events and its tokens are refused`, "unsuspend it: Settings → GitHub Apps (Installed GitHub Apps) → Configure → Unsuspend") : ok("app-installed", `${name} is installed on ${facts.repo}`),
  ];
  const short = Object.entries(wanted).filter(([permission, level]) => (RANK[installation.permissions[permission] ?? ""] ?? 0) < (RANK[level] ?? 0));
  const said = ([permission, level]: [string, string]) => `${permission}: ${level} (has ${installation.permissions[permission] ?? "none"})`;
  const missing = short.filter(([p]) => !(p in OPTIONAL)).map(said);
  const optional = short.filter(([p]) => p in OPTIONAL).map(([p, l]) => `${said([p, l])}: ${OPTIONAL[p] ?? ""}`);
  findings.push(
    missing.length === 0
      ? ok("app-permissions", `${name} holds every permission app.yml asks for${optional.length === 0 ? "" : `, but ${optional.join("; ")}`}`)
      : problem(
          "app-permissions",
          `${name} lacks permissions app.yml asks for: ${missing.join(", ")}`,
          "give the App these permissions (the App's settings → Permissions & events), then accept the new permissions on the installation (Settings → GitHub Apps → Configure → Review request)",
        ),
  );
  return findings;
}
