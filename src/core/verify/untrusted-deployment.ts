/** Whose deployments verify believes, and where a deployment's own URL may point. */
export interface VerifyTrust {
  /** Logins whose deployments and deployment statuses count (`deployers:`), compared case-insensitively and exactly (`bosun` is not `bosun[bot]`). */
  readonly deployers: readonly string[];
  /** Hosts an `environment_url` may name (`verify.hosts`); an entry with a port must match host and port. */
  readonly hosts: readonly string[];
}

/** What a verify run knows of the deployment it was started for, from GitHub's event. */
export interface DeploymentFacts {
  /** Who created the deployment (`deployment.creator.login`). */
  readonly creator: string | undefined;
  /** Who posted the status that started the run (`deployment_status.creator.login`). */
  readonly statusCreator: string | undefined;
}

/** Whether a login is an allowed deployer. */
export function isDeployer(login: string | undefined, trust: Pick<VerifyTrust, "deployers">): boolean {
  if (login === undefined || login === "") return false;
  const who = login.trim().toLowerCase();
  return trust.deployers.some((d) => d.trim().toLowerCase() === who);
}

/**
 * Why a verify run must not act, or undefined. Anyone with write access can create a deployment of
 * `main` and a `success` status whose `environment_url` is a server of their own answering main's
 * SHA: believed, it would be `verified`, close items and become the next range's start. So a
 * deployment (`deployment`, when the run is about one) counts only when an allowed deployer created
 * it and posted its status, and its `environment_url` is probed only when its host is allowed; a URL
 * the workflow names itself (`urlFromEvent` false) is the workflow's own.
 */
export function untrustedDeployment(deployment: DeploymentFacts | undefined, environmentUrl: string | undefined, urlFromEvent: boolean, trust: VerifyTrust): string | undefined {
  const allowed = trust.deployers.join(", ");
  if (deployment !== undefined) {
    if (!isDeployer(deployment.creator, trust)) return `the deployment was created by ${deployment.creator ?? "an unnamed account"}, not an allowed deployer (${allowed}): anyone with write access can create one`;
    if (!isDeployer(deployment.statusCreator, trust)) return `the deployment's status was posted by ${deployment.statusCreator ?? "an unnamed account"}, not an allowed deployer (${allowed})`;
  }
  if (!urlFromEvent || environmentUrl === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(environmentUrl);
  } catch {
    return "the deployment's environment_url is not a URL";
  }
  const host = url.host.toLowerCase();
  const name = url.hostname.toLowerCase();
  if (trust.hosts.some((h) => (h.includes(":") ? h.toLowerCase() === host : h.toLowerCase() === name))) return undefined;
  const listed = trust.hosts.length === 0 ? "none is listed" : `listed: ${trust.hosts.join(", ")}`;
  return `the deployment's environment_url points at ${name}, which is not an allowed host (verify.hosts or input verify-hosts; ${listed}): a deployment's URL is its creator's choice. Name the URL in the workflow (input url) or list its host`;
}
