/**
 * Repository rulesets, as the REST API documents them (https://docs.github.com/rest/repos/rules):
 * list, create, get, update, delete, and the active rules that apply to a branch. A ruleset is
 * `active`, `evaluate` (reported, not enforced) or `disabled`; only active ones apply to a branch.
 * Reading needs read access; writing needs admin.
 */
import { HttpError, notFound, validationFailed } from "../http-error.js";
import { paginate } from "../paginate.js";
import { intParam } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import { rulesetTargets } from "../ruleset-targets.js";
import { setupOf, type RulesetRecord, type RulesetRuleRecord } from "../setup-records.js";
import { hasPermission } from "../authenticate.js";
import { isoTime } from "../clock.js";
import { nextId, type FakeState, type RepoState } from "../state.js";
import { nodeId, repoHtmlUrl, repoUrl } from "../to-json-user-repo.js";

const ENFORCEMENTS = new Set(["active", "evaluate", "disabled"]);
const TARGETS = new Set(["branch", "tag", "push"]);

function summaryJson(state: FakeState, repo: RepoState, r: RulesetRecord): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    target: r.target,
    source_type: "Repository",
    source: `${repo.owner}/${repo.name}`,
    enforcement: r.enforcement,
    node_id: nodeId("RepositoryRuleset", r.id),
    _links: { self: { href: `${repoUrl(state, repo)}/rulesets/${r.id}` }, html: { href: `${repoHtmlUrl(state, repo)}/rules/${r.id}` } },
    created_at: isoTime(r.createdAt),
    updated_at: isoTime(r.updatedAt),
  };
}

/** The whole ruleset; `bypass_actors` only for callers with write access, as GitHub hides it from others. */
function rulesetJson(state: FakeState, ctx: RouteContext, r: RulesetRecord): Record<string, unknown> {
  return {
    ...summaryJson(state, ctx.repo, r),
    ...(hasPermission(ctx.repo, ctx.login, "write") ? { bypass_actors: r.bypassActors, current_user_can_bypass: "never" } : {}),
    conditions: { ref_name: { include: r.include, exclude: r.exclude } },
    rules: r.rules.map((rule) => (rule.parameters === undefined ? { type: rule.type } : { type: rule.type, parameters: rule.parameters })),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function readRules(value: unknown): RulesetRuleRecord[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw validationFailed("Invalid request.\n\nFor 'rules', it is not an array.");
  return value.map((rule: unknown) => {
    if (!isObject(rule) || typeof rule.type !== "string") throw validationFailed("Invalid request.\n\nFor 'rules', each rule needs a \"type\".");
    if (rule.type === "required_status_checks") {
      const p = rule.parameters;
      if (!isObject(p) || !Array.isArray(p.required_status_checks) || typeof p.strict_required_status_checks_policy !== "boolean") {
        throw validationFailed("Invalid request.\n\nFor 'required_status_checks', \"required_status_checks\" and \"strict_required_status_checks_policy\" are required.");
      }
      for (const c of p.required_status_checks as unknown[]) {
        if (!isObject(c) || typeof c.context !== "string" || (c.integration_id !== undefined && !Number.isInteger(c.integration_id))) throw validationFailed("Invalid request.\n\nEach required status check needs a \"context\" (and an integer \"integration_id\", if any).");
      }
      return { type: rule.type, parameters: structuredClone(p) };
    }
    return isObject(rule.parameters) ? { type: rule.type, parameters: structuredClone(rule.parameters) } : { type: rule.type };
  });
}

/** Name, target, enforcement, conditions and rules from a create or update body (`base` for an update). */
function readRuleset(state: FakeState, ctx: RouteContext, base?: RulesetRecord): RulesetRecord {
  const body = ctx.body;
  const name = body.name ?? base?.name;
  if (typeof name !== "string" || name === "") throw validationFailed("Invalid request.\n\n\"name\" wasn't supplied.");
  const enforcement = body.enforcement ?? base?.enforcement;
  if (typeof enforcement !== "string" || !ENFORCEMENTS.has(enforcement)) throw validationFailed(`Invalid request.\n\nFor 'enforcement', ${JSON.stringify(enforcement)} is not one of active, evaluate, disabled.`);
  const target = body.target ?? base?.target ?? "branch";
  if (typeof target !== "string" || !TARGETS.has(target)) throw validationFailed(`Invalid request.\n\nFor 'target', ${JSON.stringify(target)} is not one of branch, tag, push.`);
  const refName = isObject(body.conditions) && isObject(body.conditions.ref_name) ? body.conditions.ref_name : undefined;
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  const now = state.clock.now();
  return {
    id: base?.id ?? nextId(state),
    name,
    target: target as RulesetRecord["target"],
    enforcement: enforcement as RulesetRecord["enforcement"],
    include: refName === undefined ? (base?.include ?? []) : list(refName.include),
    exclude: refName === undefined ? (base?.exclude ?? []) : list(refName.exclude),
    rules: "rules" in body ? readRules(body.rules) : (base?.rules ?? []),
    bypassActors: Array.isArray(body.bypass_actors) ? structuredClone(body.bypass_actors) : (base?.bypassActors ?? []),
    createdAt: base?.createdAt ?? now,
    updatedAt: now,
  };
}

function findRuleset(ctx: RouteContext): RulesetRecord {
  const r = setupOf(ctx.repo).rulesets.get(intParam(ctx.params, "ruleset_id"));
  if (r === undefined) throw notFound();
  return r;
}

function listRulesets(state: FakeState, ctx: RouteContext) {
  const targets = ctx.query.get("targets")?.split(",");
  const all = [...setupOf(ctx.repo).rulesets.values()].filter((r) => targets === undefined || targets.includes(r.target)).sort((a, b) => a.id - b.id);
  return paginate(ctx, all, { map: (r) => summaryJson(state, ctx.repo, r) });
}

function createRuleset(state: FakeState, ctx: RouteContext) {
  const ruleset = readRuleset(state, ctx);
  if ([...setupOf(ctx.repo).rulesets.values()].some((r) => r.name === ruleset.name)) throw validationFailed("Validation Failed", [{ resource: "Ruleset", field: "name", code: "already_exists", message: "Name must be unique" }]);
  setupOf(ctx.repo).rulesets.set(ruleset.id, ruleset);
  return { status: 201, body: rulesetJson(state, ctx, ruleset) };
}

function getRuleset(state: FakeState, ctx: RouteContext) {
  return { status: 200, body: rulesetJson(state, ctx, findRuleset(ctx)) };
}

function updateRuleset(state: FakeState, ctx: RouteContext) {
  const updated = readRuleset(state, ctx, findRuleset(ctx));
  setupOf(ctx.repo).rulesets.set(updated.id, updated);
  return { status: 200, body: rulesetJson(state, ctx, updated) };
}

function deleteRuleset(_state: FakeState, ctx: RouteContext) {
  if (!setupOf(ctx.repo).rulesets.delete(findRuleset(ctx).id)) throw new HttpError(404, "Not Found");
  return { status: 204 };
}

/** Every rule of an active ruleset that targets the branch (which need not exist), with its ruleset named. */
function rulesForBranch(_state: FakeState, ctx: RouteContext) {
  const branch = ctx.params.branch ?? "";
  const rules = [...setupOf(ctx.repo).rulesets.values()]
    .filter((r) => r.enforcement === "active" && rulesetTargets(r, ctx.repo, branch))
    .sort((a, b) => a.id - b.id)
    .flatMap((r) => r.rules.map((rule) => ({ ...(rule.parameters === undefined ? { type: rule.type } : { type: rule.type, parameters: rule.parameters }), ruleset_source_type: "Repository", ruleset_source: `${ctx.repo.owner}/${ctx.repo.name}`, ruleset_id: r.id })));
  return paginate(ctx, rules);
}

export const rulesetRoutes: Route[] = [
  { method: "GET", pattern: "/repos/{owner}/{repo}/rulesets", kind: "read", handler: listRulesets },
  { method: "POST", pattern: "/repos/{owner}/{repo}/rulesets", kind: "write", access: "admin", handler: createRuleset },
  { method: "GET", pattern: "/repos/{owner}/{repo}/rulesets/{ruleset_id}", kind: "read", handler: getRuleset },
  { method: "PUT", pattern: "/repos/{owner}/{repo}/rulesets/{ruleset_id}", kind: "write", access: "admin", handler: updateRuleset },
  { method: "DELETE", pattern: "/repos/{owner}/{repo}/rulesets/{ruleset_id}", kind: "write", access: "admin", handler: deleteRuleset },
  { method: "GET", pattern: "/repos/{owner}/{repo}/rules/branches/{branch}", kind: "read", handler: rulesForBranch },
];
