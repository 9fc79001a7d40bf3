import type { Octokit } from "@octokit/rest";
import type { Probot } from "probot";
import { DEFAULT_CONFIG } from "../../core/config/bosun-config.js";
import type { AppOctokit } from "../app-octokit.js";
import { createLabelBootstrap } from "../intake/ensure-labels.js";
import { openOnboardingPull } from "./open-onboarding-pull.js";

/**
 * Opens the onboarding pull request when the App is installed on a repository (`installation`
 * created, or repositories added to an installation). GitHub sends both events to every App
 * without a subscription (https://docs.github.com/webhooks/webhook-events-and-payloads#installation),
 * so app.yml lists neither. The replica that opens the pull request also creates Bosun's labels
 * (GitHub's label menu offers only existing ones, so `bosun:ready` must exist before anyone can
 * pick it). A repository that fails is logged and left; the others go on.
 */
export function registerOnboarding(app: Probot): void {
  const labels = createLabelBootstrap();
  app.on(["installation.created", "installation_repositories.added"], async (context) => {
    const payload = context.payload;
    const repos = "repositories_added" in payload ? payload.repositories_added : (payload.repositories ?? []);
    const permissions = payload.installation.permissions as Record<string, string | undefined>;
    const canWriteWorkflows = permissions["workflows"] === "write";
    for (const r of repos) {
      const [owner = "", repo = ""] = r.full_name.split("/");
      const log = context.log.child({ repo: r.full_name, onboarding: true });
      try {
        const outcome = await openOnboardingPull(context.octokit as unknown as Octokit, { owner, repo }, { canWriteWorkflows });
        log.info({ outcome }, `bosun onboarding: ${outcome.kind}`);
        if (outcome.kind === "opened") await labels(context.octokit as unknown as AppOctokit, { owner, repo }, DEFAULT_CONFIG);
      } catch (err) {
        log.error({ err: err instanceof Error ? err.message : String(err) }, "bosun onboarding: could not open the onboarding pull request");
      }
    }
  });
}
