import type { ActionIo } from "../action-io.js";
import { parseVerifyOptions } from "../../core/verify/verify-options.js";
import type { VerifyOptions } from "../../core/verify/verify-options.js";
import type { DeploymentFacts } from "../../core/verify/untrusted-deployment.js";

/** Everything one verify run needs, read once from inputs and the event. */
export interface VerifyRequest {
  readonly options: VerifyOptions;
  /** The deployed commit: gets the commit status; the head of the deployed range. */
  readonly sha: string;
  readonly deploymentId: number | undefined;
  readonly environment: string | undefined;
  /** The deployment's `environment_url`, echoed on the status Bosun posts. */
  readonly environmentUrl: string | undefined;
  /** Who created the deployment and its status, on a `deployment_status` event (GitHub's own fields). */
  readonly deployment: DeploymentFacts | undefined;
  /** True when the probe's URL is the deployment's `environment_url` (its creator's choice), not an input. */
  readonly urlFromEvent: boolean;
  /** Start of the deployed range when given as an input; otherwise looked up. */
  readonly base: string | undefined;
  readonly land: boolean;
}

/** A run to do, a run to skip (with why), or every problem with the inputs. */
export type VerifyRequestResult =
  | { readonly kind: "run"; readonly request: VerifyRequest }
  | { readonly kind: "skip"; readonly reason: string }
  | { readonly kind: "invalid"; readonly problems: readonly string[] };

/** Marks statuses Bosun posts, so the deployment_status event they cause is not verified again. */
export const BOSUN_STATUS_PREFIX = "bosun:";

/**
 * Reads the verify mode's inputs and event. On `deployment_status` the deployment's SHA, id,
 * environment and `environment_url` are the defaults; inputs override them. Any other event (a
 * step after a deploy) uses the `sha`, `deployment-id`, `environment` inputs or the run's SHA.
 */
export function readVerifyRequest(io: ActionIo, fallbackSeed: number): VerifyRequestResult {
  const input = (name: string): string | undefined => {
    const v = io.input(name).trim();
    return v === "" ? undefined : v;
  };
  const payload = io.event.payload;
  let sha = input("sha") ?? io.event.sha;
  let deploymentId: number | undefined;
  let environment = input("environment");
  let environmentUrl: string | undefined;
  let deployment: DeploymentFacts | undefined;

  if (io.event.name === "deployment_status") {
    const status = record(payload["deployment_status"]);
    const event = record(payload["deployment"]);
    const state = str(status["state"]);
    if (state !== "success") return { kind: "skip", reason: `the deployment status is '${state ?? "unknown"}', not success: nothing to verify` };
    if (str(status["description"])?.startsWith(BOSUN_STATUS_PREFIX) === true) {
      return { kind: "skip", reason: "this deployment status was posted by bosun itself" };
    }
    sha = input("sha") ?? str(event["sha"]) ?? sha;
    deploymentId = num(event["id"]);
    environment ??= str(event["environment"]) ?? str(status["environment"]);
    environmentUrl = str(status["environment_url"]);
    deployment = { creator: str(record(event["creator"])["login"]), statusCreator: str(record(status["creator"])["login"]) };
  }

  const problems: string[] = [];
  const idInput = input("deployment-id");
  if (idInput !== undefined) {
    if (/^\d+$/.test(idInput)) deploymentId = Number(idInput);
    else problems.push(`input 'deployment-id' '${idInput}' must be a number`);
  }
  const url = input("url") ?? environmentUrl;
  const parsed = parseVerifyOptions(
    {
      url: input("command") === undefined ? url : input("url"),
      command: input("command"),
      expect: input("expect") ?? (sha === "" ? undefined : sha),
      field: input("field"),
      header: input("header"),
      match: input("match"),
      timeout: input("timeout"),
      interval: input("interval"),
      consecutive: input("consecutive"),
      probeTimeout: input("probe-timeout"),
      seed: input("seed"),
    },
    fallbackSeed,
    (name) => (name === "url" ? "input 'url' (or the deployment's environment_url)" : `input '${name}'`),
  );
  if (!parsed.ok) problems.push(...parsed.problems);
  if (sha === "") problems.push("no commit to verify: set input 'sha' or run on a deployment_status event");
  const landInput = (input("land") ?? "true").toLowerCase();
  if (landInput !== "true" && landInput !== "false") problems.push(`input 'land' '${landInput}' must be true or false`);
  if (!parsed.ok || problems.length > 0) return { kind: "invalid", problems };

  return {
    kind: "run",
    request: {
      options: parsed.options,
      sha,
      deploymentId,
      environment,
      // Only the deployment's own URL is passed back to GitHub: an input URL may carry credentials.
      environmentUrl,
      deployment,
      urlFromEvent: input("command") === undefined && input("url") === undefined && environmentUrl !== undefined,
      base: input("base"),
      land: landInput === "true",
    },
  };
}

function record(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === "object" ? (v as Record<string, unknown>) : {};
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isSafeInteger(v) ? v : undefined;
}
