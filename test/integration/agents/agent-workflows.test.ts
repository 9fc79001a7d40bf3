/**
 * The ready-to-copy work workflows, one per preset: shown verbatim in docs/agents.md, in the same
 * three jobs as bosun-work.yml (the agent's job holds its model key and no GitHub credential), and
 * held to the trust rules (test/workflows/shipped-workflows.test.ts lints them too).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { PRESETS } from "../../../src/core/agents/presets.js";
import { workflowTrustFindings } from "../../workflows/workflow-trust-rules.js";
import type { PresetName } from "../../../src/core/agents/agent-preset.js";

const ROOT = join(import.meta.dirname, "../../..");
const DOC = readFileSync(join(ROOT, "docs/agents.md"), "utf8");

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

describe.each(Object.keys(PRESETS) as PresetName[])("docs/workflows/bosun-work-%s.yml and the item workflow it calls", (name) => {
  // The dispatched file runs the batch (a matrix leg per item); each leg calls the item workflow, whose three jobs are checked here.
  const callerText = readFileSync(join(ROOT, `docs/workflows/bosun-work-${name}.yml`), "utf8");
  const caller = parse(callerText) as { on: Record<string, unknown>; permissions: Record<string, string>; jobs: Record<string, { uses?: string; permissions?: Record<string, string> }> };
  const text = readFileSync(join(ROOT, `docs/workflows/bosun-work-${name}-item.yml`), "utf8");
  const wf = parse(text) as { "run-name": string; on: Record<string, unknown>; permissions: Record<string, string>; jobs: Record<string, { steps: Step[]; permissions?: Record<string, string>; needs?: string | string[] }> };
  const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
  const bosunOf = (job: string) => wf.jobs[job]?.steps.find((s) => s.uses?.startsWith("bosun-dev/bosun@"));
  const bosun = bosunOf("agent") as Step;

  it("is shown verbatim in docs/agents.md", () => {
    expect(DOC).toContain(callerText);
    expect(DOC).toContain(text);
  });

  it("runs only on workflow_dispatch (read from the default branch), with a quoted run-name naming its items and epochs; the item workflow only when called", () => {
    expect(Object.keys(caller.on)).toEqual(["workflow_dispatch"]);
    expect(callerText).toMatch(/^run-name: "bosun \$\{\{ inputs\.title \}\}"$/m);
    expect(Object.values(caller.jobs).map((j) => j.uses)).toEqual([`./.github/workflows/bosun-work-${name}-item.yml`]);
    expect(caller.permissions).toEqual({});
    expect(Object.keys(wf.on)).toEqual(["workflow_call"]);
  });

  it("checks out without persisting credentials, grants GITHUB_TOKEN no write, and pins every third-party action to a commit", () => {
    expect(steps.find((s) => s.uses?.startsWith("actions/checkout@"))?.with?.["persist-credentials"]).toBe(false);
    const permissions = [wf.permissions, ...Object.values(wf.jobs).map((j) => j.permissions ?? {})];
    expect(permissions.flatMap((p) => Object.values(p)).filter((v) => v === "write")).toEqual([]);
    for (const s of steps.filter((s) => s.uses !== undefined && !s.uses.startsWith("bosun-dev/bosun@"))) expect(s.uses).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
    expect(text).not.toMatch(/secrets\.GITHUB_TOKEN/);
  });

  it("runs check, agent and land as three jobs, the App token only in check and land, and the land publishing the pull request", () => {
    expect(Object.keys(wf.jobs)).toEqual(["check", "agent", "land"]);
    expect(bosunOf("check")?.with?.["work-phase"]).toBe("check");
    expect(bosunOf("land")?.with?.["work-phase"]).toBe("land");
    expect(String(bosunOf("land")?.with?.["open-pull-request"])).toBe("true");
    expect(bosunOf("land")?.with?.["work-patch"]).toBe(bosun.with?.["work-patch"]?.toString().replace("bosun-out", "bosun-in"));
    const agentJob = wf.jobs["agent"];
    expect(agentJob?.permissions).toEqual({});
    expect(bosun.with?.["github-token"]).toBe("");
    expect(JSON.stringify(agentJob)).not.toMatch(/create-github-app-token|BOSUN_APP|github\.token/);
    expect(wf.jobs["land"]?.steps.some((s) => s.run !== undefined)).toBe(false);
    expect(workflowTrustFindings(text)).toEqual([]);
  });

  it(`runs the ${name} preset and hands it only names the preset takes`, () => {
    expect(bosun.with?.["mode"]).toBe("work");
    expect(bosun.with?.["work-phase"]).toBe("agent");
    expect(bosun.with?.["agent"]).toBe(name);
    const takes = new Set([...PRESETS[name].credentials, ...PRESETS[name].settings]);
    const env = Object.keys(bosun.env ?? {});
    expect(env.length).toBeGreaterThan(0);
    expect(env.filter((n) => !takes.has(n))).toEqual([]);
    expect(env.some((n) => PRESETS[name].credentials.includes(n))).toBe(true);
  });
});
