/**
 * Each doctor check against facts with one misconfiguration planted: the check names it as a
 * problem (with a fix), a refused read is could-not-check, and a setup as the docs describe it
 * passes every check. Facts are plain data, as the adapter reads them from GitHub.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { labelNamesOf } from "../../../src/core/setup/check-labels.js";
import { DEFAULT_CONFIG } from "../../../src/core/config/bosun-config.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import { allHold, doctorChecks } from "../../../src/core/setup/doctor-checks.js";
import { initFiles } from "../../../src/core/setup/init-files.js";
import { readFailed, readOk, type SetupFacts } from "../../../src/core/setup/setup-facts.js";
import type { SetupCheckId, SetupFinding } from "../../../src/core/setup/setup-finding.js";
import { APP_PERMISSIONS } from "../../../src/core/setup/setup-templates.js";
import { labelSpecs } from "../../../src/app/intake/ensure-labels.js";

const files = initFiles({ agent: "claude-code", actionOnly: false, verify: false });
const text = (path: string) => files.find((f) => f.path === path)?.content ?? "";
const config = text(".github/bosun.yml");
const workflows = Object.fromEntries(files.filter((f) => f.path.startsWith(".github/workflows/")).map((f) => [f.path.slice(".github/workflows/".length), f.content]));
const parsed = parseConfig(config);

/** The setup the docs describe: every check holds. */
function good(): SetupFacts {
  return {
    repo: "acme/app",
    defaultBranch: "main",
    installation: readOk({ appId: 42, appSlug: "bosun", permissions: { ...APP_PERMISSIONS }, suspended: false }),
    config: readOk(config),
    labels: readOk(labelNamesOf(parsed.ok ? parsed.config : DEFAULT_CONFIG)),
    workflows: readOk({ ...workflows }),
    environment: readOk({ branchPolicy: { protectedBranches: false, customBranchPolicies: true }, policies: readOk([{ name: "main", type: "branch" }]) }),
    environmentSecrets: readOk(["BOSUN_APP_CLIENT_ID", "BOSUN_APP_KEY", "OTHER"]),
    protectionChecks: readOk([]),
    rulesetChecks: readOk([{ context: "bosun/gate", appId: 42 }, { context: "bosun/separation", appId: 42 }]),
    rulesets: readOk([]),
  };
}

const of = (findings: SetupFinding[], check: SetupCheckId) => findings.filter((f) => f.check === check);
const problems = (facts: SetupFacts, check: SetupCheckId) => of(doctorChecks(facts), check).filter((f) => f.status === "problem");
const gate = (edit: (t: string) => string): SetupFacts => ({ ...good(), workflows: readOk({ ...workflows, "bosun-gate.yml": edit(workflows["bosun-gate.yml"] ?? "") }) });

describe("doctor on a setup as the docs describe it", () => {
  it("every check holds, each reported once as ok", () => {
    const findings = doctorChecks(good());
    expect(findings.filter((f) => f.status !== "ok")).toEqual([]);
    expect(allHold(findings)).toBe(true);
    expect(new Set(findings.map((f) => f.check))).toEqual(new Set(["app-installed", "app-permissions", "config", "labels", "workflows", "environment", "environment-secrets", "required-checks"]));
  });

  it("classic branch protection with the App as source counts as much as a ruleset", () => {
    expect(allHold(doctorChecks({ ...good(), rulesetChecks: readOk([]), protectionChecks: readOk([{ context: "bosun/gate", appId: 42 }, { context: "bosun/separation", appId: 42 }]) }))).toBe(true);
  });

  it("an App without the workflows permission still holds what a working setup needs (only the onboarding pull request needed it)", () => {
    const { workflows: _dropped, ...rest } = APP_PERMISSIONS;
    const findings = doctorChecks({ ...good(), installation: readOk({ appId: 42, appSlug: "bosun", permissions: rest, suspended: false }) });
    expect(allHold(findings)).toBe(true);
    expect(of(findings, "app-permissions")[0]?.message).toContain("workflows: write (has none): without it the onboarding pull request leaves the workflows out");
  });

  it("the labels it expects are the ones the App creates", () => {
    expect(labelNamesOf(DEFAULT_CONFIG)).toEqual(labelSpecs(DEFAULT_CONFIG).map((l) => l.name));
  });
});

describe("each check finds its misconfiguration", () => {
  it.each<[string, SetupCheckId, (f: SetupFacts) => SetupFacts, RegExp]>([
    ["the App is not installed", "app-installed", (f) => ({ ...f, installation: readOk(null) }), /not installed on acme\/app/],
    ["the installation is suspended", "app-installed", (f) => ({ ...f, installation: readOk({ appId: 42, appSlug: "bosun", permissions: { ...APP_PERMISSIONS }, suspended: true }) }), /suspended/],
    ["the App lacks statuses: write", "app-permissions", (f) => ({ ...f, installation: readOk({ appId: 42, appSlug: "bosun", permissions: { ...APP_PERMISSIONS, statuses: "read" }, suspended: false }) }), /statuses: write \(has read\)/],
    ["no .github/bosun.yml", "config", (f) => ({ ...f, config: readOk(null) }), /no \.github\/bosun\.yml on main/],
    ["an invalid config", "config", (f) => ({ ...f, config: readOk("pools: { default: { size: -1, dispatch: { kind: workflow, workflow: bosun-work-claude-code.yml } } }\n") }), /invalid: pools\.default\.size/],
    ["a missing label", "labels", (f) => ({ ...f, labels: readOk(labelNamesOf(DEFAULT_CONFIG).filter((l) => l !== "bosun:ready")) }), /missing label: bosun:ready/],
    ["the gate workflow is missing", "workflows", (f) => ({ ...f, workflows: readOk(Object.fromEntries(Object.entries(workflows).filter(([k]) => k !== "bosun-gate.yml"))) }), /bosun-gate\.yml is missing/],
    ["the dispatched work workflow is missing", "workflows", (f) => ({ ...f, workflows: readOk(Object.fromEntries(Object.entries(workflows).filter(([k]) => k !== "bosun-work-claude-code.yml"))) }), /bosun-work-claude-code\.yml is missing .*a pool/],
    [
      "the gate checks out the PR's head beside the App key and runs it",
      "workflows",
      () => gate((t) => t.replace("      - id: gate\n", "      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1\n        with:\n          ref: ${{ github.event.workflow_run.head_sha }}\n      - run: npm ci && npm test\n      - id: gate\n")),
      /job 'gate' checks out \$\{\{ github\.event\.workflow_run\.head_sha \}\}, which the template does not — code it checks out runs beside the job's credentials/,
    ],
    ["the gate also runs on pull_request", "workflows", () => gate((t) => t.replace("on:\n", "on:\n  pull_request:\n")), /runs on pull_request, which the template does not/],
    ["the gate job drops its environment", "workflows", () => gate((t) => t.replace("    environment: bosun\n", "")), /runs in no environment, the template in 'bosun'/],
    ["the gate posts with the job's own token", "workflows", () => gate((t) => t.replace("github-token: ${{ steps.app.outputs.token }}", "github-token: ${{ github.token }}")), /github-token: \$\{\{ github\.token \}\}/],
    ["the gate job may write contents", "workflows", () => gate((t) => t.replace("    permissions:\n      actions: read\n", "    permissions:\n      actions: read\n      contents: write\n")), /more than the template: contents: write/],
    ["an action is pinned to a tag", "workflows", () => gate((t) => t.replace(/actions\/download-artifact@[0-9a-f]{40}/, "actions/download-artifact@v8")), /actions\/download-artifact@v8: not pinned/],
    ["Bosun's action is taken from a branch", "workflows", () => gate((t) => t.replace("bosun-dev/bosun@v1", "bosun-dev/bosun@main")), /bosun-dev\/bosun@main/],
    [
      "the acceptance job reads a secret",
      "workflows",
      (f) => ({ ...f, workflows: readOk({ ...workflows, "bosun-acceptance.yml": (workflows["bosun-acceptance.yml"] ?? "").replace("          COMMAND: npm ci && npm test\n", "          COMMAND: npm ci && npm test\n          NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n") }) }),
      /reads secrets the template does not: NPM_TOKEN/,
    ],
    ["no environment bosun", "environment", (f) => ({ ...f, environment: readOk(null) }), /no environment 'bosun'/],
    ["the environment is open to every branch", "environment", (f) => ({ ...f, environment: readOk({ branchPolicy: null }) }), /may be deployed from any branch/],
    ["the environment lets a branch pattern deploy", "environment", (f) => ({ ...f, environment: readOk({ branchPolicy: { protectedBranches: false, customBranchPolicies: true }, policies: readOk([{ name: "main", type: "branch" as const }, { name: "*", type: "branch" as const }]) }) }), /branch pattern '\*'/],
    ["the environment lets tags deploy", "environment", (f) => ({ ...f, environment: readOk({ branchPolicy: { protectedBranches: false, customBranchPolicies: true }, policies: readOk([{ name: "main", type: "branch" as const }, { name: "v*", type: "tag" as const }]) }) }), /tag pattern 'v\*'/],
    ["the environment lets an unprotected branch deploy", "environment", (f) => ({ ...f, environment: readOk({ branchPolicy: { protectedBranches: false, customBranchPolicies: true }, policies: readOk([{ name: "main", type: "branch" as const }, { name: "dev", type: "branch" as const, protected: readOk(false) }]) }) }), /branch 'dev', which is not protected/],
    ["the environment leaves the default branch out", "environment", (f) => ({ ...f, environment: readOk({ branchPolicy: { protectedBranches: false, customBranchPolicies: true }, policies: readOk([]) }) }), /does not let the default branch 'main' deploy/],
    ["the environment lacks the App's key", "environment-secrets", (f) => ({ ...f, environmentSecrets: readOk(["BOSUN_APP_CLIENT_ID"]) }), /lacks BOSUN_APP_KEY/],
    ["bosun/gate required from any source", "required-checks", (f) => ({ ...f, rulesetChecks: readOk([{ context: "bosun/gate", appId: null }, { context: "bosun/separation", appId: 42 }]) }), /requires bosun\/gate from any source/],
    ["bosun/separation required from GitHub Actions", "required-checks", (f) => ({ ...f, rulesetChecks: readOk([{ context: "bosun/gate", appId: 42 }, { context: "bosun/separation", appId: 15368 }]) }), /bosun\/separation from GitHub Actions/],
    ["bosun/gate required from another App", "required-checks", (f) => ({ ...f, rulesetChecks: readOk([{ context: "bosun/gate", appId: 7 }, { context: "bosun/separation", appId: 42 }]) }), /from the App with id 7, not the Bosun App \(id 42\)/],
    ["no required check at all", "required-checks", (f) => ({ ...f, rulesetChecks: readOk([]) }), /main does not require bosun\/gate/],
    [
      "only an evaluate-mode ruleset names the checks",
      "required-checks",
      (f) => ({ ...f, rulesetChecks: readOk([]), rulesets: readOk([{ id: 1, name: "trial", enforcement: "evaluate", target: "branch", include: ["~DEFAULT_BRANCH"], exclude: [], requiredChecks: [{ context: "bosun/gate", appId: 42 }] }]) }),
      /ruleset 'trial' \(enforcement: evaluate\) names it but does not enforce it/,
    ],
  ])("%s: %s names it, with a fix", (_name, check, plant, message) => {
    const found = problems(plant(good()), check);
    expect(found.map((f) => f.message).join("\n")).toMatch(message);
    for (const f of found) expect(f.fix ?? "").not.toBe("");
  });
});

describe("a read GitHub refused is could-not-check, never ok", () => {
  it.each<[string, keyof SetupFacts, SetupCheckId[]]>([
    ["the installation (a person's token)", "installation", ["app-installed", "app-permissions"]],
    ["the config", "config", ["config"]],
    ["the labels", "labels", ["labels"]],
    ["the workflows", "workflows", ["workflows"]],
    ["the environment", "environment", ["environment"]],
    ["the environment's secrets", "environmentSecrets", ["environment-secrets"]],
  ])("%s answered 403", (_name, key, checks) => {
    const facts = { ...good(), [key]: readFailed(403, "Resource not accessible by integration") } as SetupFacts;
    const findings = doctorChecks(facts);
    for (const check of checks) {
      const mine = of(findings, check);
      expect(mine.length).toBeGreaterThan(0);
      for (const f of mine) expect(f.status).toBe("could-not-check");
    }
    expect(allHold(findings)).toBe(false);
  });

  it("required checks: a refused rulesets read with no classic protection is could-not-check; an unknown App id is could-not-check too", () => {
    const refused = doctorChecks({ ...good(), rulesetChecks: readFailed(403, "forbidden") });
    expect(of(refused, "required-checks").map((f) => f.status)).toEqual(["could-not-check", "could-not-check"]);
    const unknownApp = doctorChecks({ ...good(), installation: readFailed(401, "A JSON web token could not be decoded") });
    expect(of(unknownApp, "required-checks").map((f) => f.status)).toEqual(["could-not-check", "could-not-check"]);
    // Given the App's id, the sources can be judged without the installation.
    const withId = doctorChecks({ ...good(), installation: readFailed(401, "x"), appId: 42 });
    expect(of(withId, "required-checks").map((f) => f.status)).toEqual(["ok", "ok"]);
  });
});

describe("doctor on a pool's dispatch form (one item a run, or a batch)", () => {
  // The one-item work workflow as `bosun init` wrote it before `batch` (inputs item, epoch, brief_hash).
  const oneItem = readFileSync(join(import.meta.dirname, "../../fixtures/setup/one-item-bosun-work-claude-code.yml"), "utf8");
  const oneItemConfig = config.replace(", batch: true }", " }");
  const withForm = (cfg: string, work: Record<string, string>): SetupFacts => {
    const { "bosun-work-claude-code.yml": _caller, "bosun-work-claude-code-item.yml": _item, ...rest } = workflows;
    return { ...good(), config: readOk(cfg), workflows: readOk({ ...rest, ...work }) };
  };

  it("an unchanged one-item setup (no batch, the one-item workflow) keeps its trust: no problem", () => {
    expect(oneItemConfig).not.toContain("batch: true");
    const findings = doctorChecks(withForm(oneItemConfig, { "bosun-work-claude-code.yml": oneItem }));
    expect(findings.filter((f) => f.status !== "ok")).toEqual([]);
  });

  it("a one-item workflow that lets its agent job mint an App token is still a problem", () => {
    const widened = oneItem.replace("    environment: bosun-agent\n", "    environment: bosun\n");
    expect(widened).not.toBe(oneItem);
    expect(problems(withForm(oneItemConfig, { "bosun-work-claude-code.yml": widened }), "workflows").map((f) => f.message)).toEqual([expect.stringContaining("job 'agent' runs in environment 'bosun'")]);
  });

  it.each([
    { what: "a pool without batch and the batched workflow", cfg: () => oneItemConfig, work: () => ({ "bosun-work-claude-code.yml": workflows["bosun-work-claude-code.yml"] ?? "", "bosun-work-claude-code-item.yml": workflows["bosun-work-claude-code-item.yml"] ?? "" }), says: /pool 'default' dispatches \.github\/workflows\/bosun-work-claude-code\.yml with inputs item, epoch, brief_hash, but the workflow declares title, items: GitHub refuses every dispatch \(422 Unexpected inputs\) — it is the batched form: set `batch: true`/ },
    { what: "a pool with batch: true and the one-item workflow", cfg: () => config, work: () => ({ "bosun-work-claude-code.yml": oneItem }), says: /pool 'default' dispatches \.github\/workflows\/bosun-work-claude-code\.yml with inputs title, items \(batch: true\), but the workflow declares item, epoch, brief_hash: .* — it is the one-item form: remove `batch: true`/ },
  ])("$what: a problem naming the pool, the inputs each side has, and the fix", ({ cfg, work, says }) => {
    const found = problems(withForm(cfg(), work()), "workflows");
    expect(found.map((f) => f.message)).toContainEqual(expect.stringMatching(says));
  });
});
