import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { appJwt } from "../../adapters/github/app-jwt.js";
import { createOctokit } from "../../adapters/github/create-octokit.js";
import { readSetupFacts, RepositoryUnreadable } from "../../adapters/github/read-setup-facts.js";
import { allHold, doctorChecks } from "../../core/setup/doctor-checks.js";
import { renderDoctorReport } from "../../core/setup/render-doctor-report.js";
import type { CliCommand, CliIo } from "../cli-io.js";
import { terminalText } from "../terminal-text.js";
import { argsErrorMessage, usageError } from "../usage-error.js";

const usage = `Usage: bosun doctor --repo OWNER/NAME [--app-id ID] [--app-key FILE] [--json]

Reads a repository's Bosun setup from GitHub and reports every check as ok, problem (with its
fix) or could not check: the App installed with app.yml's permissions; .github/bosun.yml valid;
the labels; the workflows present and as trustworthy as docs/workflows/ ships them (triggers,
permissions, secrets, checkouts, pinned actions); environment 'bosun' deploying only from the
default or protected branches and holding BOSUN_APP_CLIENT_ID and BOSUN_APP_KEY; and the default
branch requiring bosun/gate and bosun/separation from the App, by branch protection or an active
ruleset. A read GitHub refuses is "could not check", naming what the token lacks — never ok.

  --repo OWNER/NAME  the repository
  --app-id ID        the Bosun App's id (default $BOSUN_APP_ID): the source the checks must be required from
  --app-key FILE     the App's private key (PEM; default the text of $BOSUN_APP_KEY): GitHub shows a
                     repository's installation and its permissions only to the App itself
  --json             print one object: {"repo", "ok", "checks": [...], "problems": [{"check", ...}], "could_not_check": [...]}

The token comes from GH_TOKEN or GITHUB_TOKEN (an admin's, to read every setting); the API from
GITHUB_API_URL (default https://api.github.com). Nothing is written to the repository.
Exit: 0 every check holds · 1 a problem, or a check that could not be made · 2 usage error`;

async function run(args: readonly string[], io: CliIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { repo: { type: "string" }, "app-id": { type: "string" }, "app-key": { type: "string" }, json: { type: "boolean", default: false } },
      allowPositionals: false,
      strict: true,
    }));
  } catch (err) {
    return usageError(io, "doctor", argsErrorMessage(err));
  }
  const repo = /^([\w.-]+)\/([\w.-]+)$/.exec(values.repo ?? "");
  if (repo === null) return usageError(io, "doctor", values.repo === undefined ? "--repo OWNER/NAME is required" : `--repo must be OWNER/NAME, not '${values.repo}'`);
  const idText = values["app-id"] ?? io.env["BOSUN_APP_ID"];
  const appId = idText === undefined || idText === "" ? undefined : Number(idText);
  if (appId !== undefined && !(Number.isInteger(appId) && appId > 0)) return usageError(io, "doctor", `--app-id must be the App's numeric id, not '${idText ?? ""}'`);
  let key = io.env["BOSUN_APP_KEY"];
  if (values["app-key"] !== undefined) {
    try {
      key = await readFile(resolve(io.cwd, values["app-key"]), "utf8");
    } catch (err) {
      return usageError(io, "doctor", `cannot read --app-key ${values["app-key"]}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  }
  if (key !== undefined && key !== "" && appId === undefined) return usageError(io, "doctor", "the App's key needs its id too: --app-id ID (or BOSUN_APP_ID)");
  const baseUrl = io.env["GITHUB_API_URL"] || "https://api.github.com";
  const token = io.env["GH_TOKEN"] || io.env["GITHUB_TOKEN"];
  let jwt: string | undefined;
  if (key !== undefined && key !== "" && appId !== undefined) {
    try {
      jwt = appJwt(appId, key, Date.now());
    } catch {
      // The key's own text never reaches the output.
      return usageError(io, "doctor", "the App's key is not a PEM private key GitHub would accept");
    }
  }
  // Refused reads are findings; Octokit's own request log would print each of them again.
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const octokit = createOctokit({ baseUrl, log, ...(token === undefined || token === "" ? {} : { auth: token }) });
  let facts;
  try {
    facts = await readSetupFacts(
      { owner: repo[1] as string, repo: repo[2] as string },
      { octokit, ...(jwt === undefined ? {} : { appOctokit: createOctokit({ baseUrl, log, auth: jwt }) }), ...(appId === undefined ? {} : { appId }) },
    );
  } catch (err) {
    if (!(err instanceof RepositoryUnreadable)) throw err;
    io.stderr.write(`bosun doctor: ${terminalText(err.message)}${token === undefined || token === "" ? " (no GH_TOKEN or GITHUB_TOKEN set)" : ""}\n`);
    return 1;
  }
  const findings = doctorChecks(facts);
  const holds = allHold(findings);
  if (values.json) {
    const pick = (status: string) => findings.filter((f) => f.status === status);
    io.stdout.write(`${JSON.stringify({ repo: facts.repo, default_branch: facts.defaultBranch, ok: holds, checks: findings, problems: pick("problem"), could_not_check: pick("could-not-check") })}\n`);
  } else {
    io.stdout.write(terminalText(renderDoctorReport(facts.repo, facts.defaultBranch, findings)));
  }
  return holds ? 0 : 1;
}

const command: CliCommand = { summary: "check a repository's Bosun setup on GitHub: App, config, workflows, environment, required checks", usage, run };
export default command;
