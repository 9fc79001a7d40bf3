import { DEFAULT_INIT_AGENT, type InitFile } from "../../core/setup/init-files.js";
import { setupSteps } from "../../core/setup/setup-steps.js";

/** The onboarding pull request's body: what it adds, then the steps a pull request cannot do, as a checklist. */
export function onboardingBody(input: { repo: string; files: readonly InitFile[]; workflowsLeftOut: boolean }): string {
  const steps = setupSteps({ agent: DEFAULT_INIT_AGENT, actionOnly: false, verify: false, context: "onboarding", repo: input.repo, workflowsLeftOut: input.workflowsLeftOut });
  return [
    "Bosun was installed on this repository. This pull request adds what `npx bosun init` writes for the default agent",
    `(\`${DEFAULT_INIT_AGENT}\`; run \`npx bosun init --agent <name> --force\` on this branch for another):`,
    "",
    ...input.files.map((f) => `- \`${f.path}\``),
    "",
    "Bosun dispatches nothing until this is merged. A pull request cannot change a repository's settings, so an admin does these, in order:",
    "",
    ...steps.map((s) => `- [ ] ${s}`),
    "",
    "Close this pull request to decline: Bosun will not open it again.",
    "",
  ].join("\n");
}
