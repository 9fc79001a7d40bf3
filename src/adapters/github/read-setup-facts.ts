/**
 * Reads what `bosun doctor` judges from a repository through the REST API, every read turned into
 * a `Read` (its value, or the status GitHub refused it with) so that a refusal is reported as
 * could-not-check and never as a pass. Each GET can go through a conditional-GET cache (the App's
 * Setup section): an unchanged answer is a 304 that costs no rate limit.
 */
import type { Octokit } from "@octokit/rest";
import { workflowsToRead } from "../../core/setup/check-workflows.js";
import { SETUP_ENVIRONMENT } from "../../core/setup/check-environment.js";
import { readFailed, readOk, type DeploymentPolicyFact, type EnvironmentFact, type InstallationFact, type Read, type RequiredCheckFact, type RulesetFact, type SetupFacts } from "../../core/setup/setup-facts.js";
import type { ConditionalGet } from "./conditional-get.js";
import { statusOf } from "./status-of.js";

export interface SetupReadOptions {
  /** The client every read but the installation's goes through (a person's token, or the App's installation). */
  readonly octokit: Octokit;
  /** A client authenticated as the App itself (a JWT): `GET /repos/{owner}/{repo}/installation` answers only to it. */
  readonly appOctokit?: Octokit;
  /** The Bosun App's id when known without reading the installation. */
  readonly appId?: number;
  /** Conditional GETs by key (the App's cache); without one every read is plain. */
  readonly conditional?: ConditionalGet;
}

/** The repository itself could not be read: nothing else can be judged. */
export class RepositoryUnreadable extends Error {
  constructor(
    readonly repo: string,
    readonly status: number | null,
  ) {
    super(`cannot read ${repo}: ${status === null ? "no answer from GitHub" : `HTTP ${status}`}${status === 404 ? " (no such repository, or the token cannot see it)" : ""}`);
  }
}

type Where = { owner: string; repo: string };
type Response = { data: unknown; headers: { etag?: string } };

function detailOf(err: unknown): string {
  const message = (err as { response?: { data?: { message?: unknown } } } | null)?.response?.data?.message;
  return typeof message === "string" ? message : err instanceof Error ? err.message.split("\n")[0] ?? "" : String(err);
}

/** A read turned into a value or a refusal; `absent` says which statuses mean "there is none". */
async function attempt<T>(read: () => Promise<T>, absent?: { statuses: readonly number[]; value: T }): Promise<Read<T>> {
  try {
    return readOk(await read());
  } catch (err) {
    const status = statusOf(err) ?? null;
    if (absent !== undefined && status !== null && absent.statuses.includes(status)) return readOk(absent.value);
    return readFailed(status, detailOf(err));
  }
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export async function readSetupFacts(where: Where, options: SetupReadOptions): Promise<SetupFacts> {
  const { octokit } = options;
  const repoName = `${where.owner}/${where.repo}`;
  const get = async (client: Octokit, route: string, params: Record<string, unknown>): Promise<unknown> => {
    const send = (headers: Record<string, string>) => client.request(route, { ...where, ...params, headers }) as Promise<Response>;
    if (options.conditional === undefined) return (await send({})).data;
    return options.conditional(`${route} ${JSON.stringify(params)}`, send);
  };
  /** Every page of a list (100 a page); `pick` finds the rows in a page's body. */
  const list = async (route: string, params: Record<string, unknown>, pick: (data: unknown) => unknown[] = arr): Promise<unknown[]> => {
    const rows: unknown[] = [];
    for (let page = 1; page <= 50; page++) {
      const data = pick(await get(octokit, route, { ...params, per_page: 100, page }));
      rows.push(...data);
      if (data.length < 100) break;
    }
    return rows;
  };

  let defaultBranch: string;
  try {
    defaultBranch = String(obj(await get(octokit, "GET /repos/{owner}/{repo}", {})).default_branch ?? "main");
  } catch (err) {
    throw new RepositoryUnreadable(repoName, statusOf(err) ?? null);
  }
  const raw = (path: string) => get(octokit, "GET /repos/{owner}/{repo}/contents/{path}", { path, ref: defaultBranch, mediaType: { format: "raw" } }).then((d) => (typeof d === "string" ? d : JSON.stringify(d)));

  const installation = attempt<InstallationFact | null>(
    async () => {
      const data = obj(await get(options.appOctokit ?? octokit, "GET /repos/{owner}/{repo}/installation", {}));
      return {
        appId: Number(data.app_id),
        appSlug: String(data.app_slug ?? ""),
        permissions: Object.fromEntries(Object.entries(obj(data.permissions)).map(([k, v]) => [k, String(v)])),
        suspended: data.suspended_at !== null && data.suspended_at !== undefined,
      };
    },
    // To the App itself a 404 means "not installed here"; to anyone else it means nothing.
    options.appOctokit === undefined ? undefined : { statuses: [404], value: null },
  );
  const config = attempt<string | null>(() => raw(".github/bosun.yml"), { statuses: [404], value: null });
  const labels = attempt(async () => (await list("GET /repos/{owner}/{repo}/labels", {})).map((l) => String(obj(l).name)));
  const workflows = config.then((c) =>
    attempt(async () => {
      const listing = await get(octokit, "GET /repos/{owner}/{repo}/contents/{path}", { path: ".github/workflows", ref: defaultBranch }).catch((err: unknown) => {
        if (statusOf(err) === 404) return [];
        throw err;
      });
      const names = arr(listing).map((e) => String(obj(e).name));
      const files: Record<string, string> = {};
      for (const name of workflowsToRead(c, names).filter((n) => names.includes(n))) files[name] = await raw(`.github/workflows/${name}`);
      return files;
    }),
  );
  const isProtected = (branch: string) => attempt(async () => obj(await get(octokit, "GET /repos/{owner}/{repo}/branches/{branch}", { branch })).protected === true, { statuses: [404], value: false });
  const environment = attempt<EnvironmentFact | null>(
    async () => {
      const env = obj(await get(octokit, "GET /repos/{owner}/{repo}/environments/{environment_name}", { environment_name: SETUP_ENVIRONMENT }));
      const policy = env.deployment_branch_policy;
      if (policy === null || policy === undefined) return { branchPolicy: null };
      const branchPolicy = { protectedBranches: obj(policy).protected_branches === true, customBranchPolicies: obj(policy).custom_branch_policies === true };
      if (!branchPolicy.customBranchPolicies) return { branchPolicy };
      const policies = await attempt(async () => {
        const rows = await list("GET /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies", { environment_name: SETUP_ENVIRONMENT }, (d) => arr(obj(d).branch_policies));
        const out: DeploymentPolicyFact[] = [];
        for (const row of rows) {
          const name = String(obj(row).name);
          const type = obj(row).type === "tag" ? "tag" : "branch";
          const exactOther = type === "branch" && name !== defaultBranch && !/[*?[\]]/.test(name);
          out.push(exactOther ? { name, type, protected: await isProtected(name) } : { name, type });
        }
        return out;
      });
      return { branchPolicy, policies };
    },
    { statuses: [404], value: null },
  );
  const environmentSecrets = environment.then((env) =>
    env.ok && env.value === null
      ? readOk<readonly string[]>([])
      : attempt(async () => (await list("GET /repos/{owner}/{repo}/environments/{environment_name}/secrets", { environment_name: SETUP_ENVIRONMENT }, (d) => arr(obj(d).secrets))).map((s) => String(obj(s).name))),
  );
  // Classic protection as the branch shows it to anyone who can read it (`protection.required_status_checks`).
  const protectionChecks = attempt(async () => {
    const branch = obj(await get(octokit, "GET /repos/{owner}/{repo}/branches/{branch}", { branch: defaultBranch }));
    const protection = obj(branch.protection);
    if (branch.protected !== true || protection.enabled === false) return [];
    const required = obj(protection.required_status_checks);
    const checks: RequiredCheckFact[] = arr(required.checks).map((c) => ({ context: String(obj(c).context), appId: typeof obj(c).app_id === "number" && Number(obj(c).app_id) > 0 ? Number(obj(c).app_id) : null }));
    // `contexts` alone (the older field) binds no App.
    for (const context of arr(required.contexts).map(String)) if (!checks.some((c) => c.context === context)) checks.push({ context, appId: null });
    return checks;
  });
  const rulesetChecks = attempt(async () =>
    (await list("GET /repos/{owner}/{repo}/rules/branches/{branch}", { branch: defaultBranch }))
      .filter((r) => obj(r).type === "required_status_checks")
      .flatMap((r) => arr(obj(obj(r).parameters).required_status_checks).map((c) => ({ context: String(obj(c).context), appId: typeof obj(c).integration_id === "number" ? Number(obj(c).integration_id) : null }))),
  );
  const rulesets = attempt(async () => {
    const summaries = await list("GET /repos/{owner}/{repo}/rulesets", { includes_parents: true });
    const out: RulesetFact[] = [];
    for (const summary of summaries) {
      const r = obj(await get(octokit, "GET /repos/{owner}/{repo}/rulesets/{ruleset_id}", { ruleset_id: Number(obj(summary).id) }));
      const refName = obj(obj(r.conditions).ref_name);
      out.push({
        id: Number(r.id),
        name: String(r.name),
        enforcement: String(r.enforcement),
        target: String(r.target ?? "branch"),
        include: arr(refName.include).map(String),
        exclude: arr(refName.exclude).map(String),
        requiredChecks: arr(r.rules)
          .filter((rule) => obj(rule).type === "required_status_checks")
          .flatMap((rule) => arr(obj(obj(rule).parameters).required_status_checks).map((c) => ({ context: String(obj(c).context), appId: typeof obj(c).integration_id === "number" ? Number(obj(c).integration_id) : null }))),
      });
    }
    return out;
  });
  return {
    repo: repoName,
    defaultBranch,
    installation: await installation,
    ...(options.appId === undefined ? {} : { appId: options.appId }),
    config: await config,
    labels: await labels,
    workflows: await workflows,
    environment: await environment,
    environmentSecrets: await environmentSecrets,
    protectionChecks: await protectionChecks,
    rulesetChecks: await rulesetChecks,
    rulesets: await rulesets,
  };
}
