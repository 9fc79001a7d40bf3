/**
 * The steps of a setup that no file can do — GitHub settings only a repository admin can change —
 * in the order to do them. `bosun init` prints them; the onboarding pull request lists them as a
 * checklist. Each is what docs/security.md ("Set it up") says, and `bosun doctor` checks each one.
 */
import { agentSecretsOf, type InitOptions } from "./init-files.js";

export interface SetupStepsOptions extends InitOptions {
  /** `init`: the files are on disk, not committed yet. `onboarding`: they are in a pull request the installed App opened. */
  readonly context: "init" | "onboarding";
  /** `owner/name`, for the doctor command line; a placeholder when unknown. */
  readonly repo?: string;
  /** The App's workflows were left out of the pull request (the installation cannot write workflow files). */
  readonly workflowsLeftOut?: boolean;
}

/** The steps in order, each one line of plain text (markdown code spans allowed). */
export function setupSteps(options: SetupStepsOptions): string[] {
  const repo = options.repo ?? "OWNER/NAME";
  const keys = agentSecretsOf(options.agent);
  const steps: string[] = [];
  if (options.context === "init") {
    steps.push(
      options.actionOnly
        ? "Register a GitHub App with no webhook and install it on this repository: repository permissions Checks, Commit statuses, Contents, Issues, Pull requests and Actions read and write, Metadata read (docs/security.md, \"Set it up\")."
        : "Create the Bosun GitHub App from `app.yml`, start its server and install it on this repository (README, \"Put Bosun on a repository\").",
    );
  }
  if (options.workflowsLeftOut === true) {
    steps.push("Add the workflows this pull request could not (the App was installed without the Workflows permission): run `npx bosun init` in a checkout of this branch and commit what it writes.");
  }
  steps.push(
    "Create the environment `bosun` (Settings → Environments → New environment): Deployment branches and tags **Selected branches and tags** with the default branch only; environment secrets `BOSUN_APP_CLIENT_ID` (the App's client ID) and `BOSUN_APP_KEY` (its private key). Keep neither as a repository secret.",
    `Create the environment \`bosun-agent\`, also for the default branch only, holding the agent's key${keys.length === 1 ? "" : "s"}: ${keys.map((k) => `\`${k}\``).join(", ")}.`,
  );
  if (options.agent === "command") steps.push("Write `scripts/run-agent.sh`, the command the work workflow's agent job runs (docs/dispatch.md).");
  steps.push(
    "Set `COMMAND` in `.github/workflows/bosun-acceptance.yml` to the acceptance command your briefs name (the gate compares them).",
    "Pin `bosun-dev/bosun@v1` in the workflows to the release's full commit SHA (`bosun-dev/bosun@<40 hex> # v1.x.y`).",
    "Settings → Actions → General: Workflow permissions **Read repository contents and packages permissions**; require approval for fork pull request workflows from outside collaborators.",
    options.context === "init"
      ? "Commit these files to the default branch through a pull request: its run is what makes `bosun/gate` and `bosun/separation` known to GitHub (a check is offered as required only once it has run in the last 7 days)."
      : "Merge this pull request, then open any pull request: its run is what makes `bosun/gate` and `bosun/separation` known to GitHub (a check is offered as required only once it has run in the last 7 days).",
    "Require `bosun/gate` and `bosun/separation` on the default branch **with the Bosun App as their source**: a ruleset (Settings → Rules → Rulesets: Enforcement Active, target the default branch, Require status checks, the App as each check's source) or branch protection (docs/security.md, \"Set it up\", step 4). A check required from any source can be posted by any workflow a pull request edits.",
  );
  if (options.verify) steps.push("Deploy only the default branch to the environments `bosun-verify.yml` verifies: `deployment_status` runs the deployed commit's workflow file.");
  steps.push(`Check the whole setup: \`npx bosun doctor --repo ${repo}\` (with the App's id and key it also checks the installation).`);
  return steps;
}
