import { describe, expect, it } from "vitest";
import { checkAcceptance } from "../../../src/core/gate/check-acceptance.js";
import type { CheckResult } from "../../../src/core/gate/check-result.js";
import { combineVerdict } from "../../../src/core/gate/combine-verdict.js";
import { DEFAULT_GATE_CONFIG } from "../../../src/core/gate/gate-config.js";
import { manifestsToLookUp } from "../../../src/core/gate/lock-files.js";
import { compileGateConfig, runMechanicalChecks } from "../../../src/core/gate/run-mechanical-checks.js";
import { brief, diff, file } from "./gate-fixtures.js";

const config = compileGateConfig(DEFAULT_GATE_CONFIG);
const byName = (results: readonly CheckResult[]) => Object.fromEntries(results.map((r) => [r.check, r]));

describe("mechanical checks", () => {
  it("passes a diff inside the allowed paths and under the cap", () => {
    const r = byName(runMechanicalChecks(brief(), diff([file("src/http/client.ts", 20, 5), file("test/http/client.test.ts", 30)]), config));
    expect(r["diff"]?.result).toBe("passed");
    expect(r["paths"]?.result).toBe("passed");
    expect(r["size"]?.result).toBe("passed");
    expect(r["size"]?.evidence).toContain("55 changed lines");
    expect(r["sensitive"]?.result).toBe("passed");
  });

  it("names and annotates every off-brief file", () => {
    const r = byName(runMechanicalChecks(brief(), diff([file("src/http/client.ts"), file("src/db/pool.ts"), file("README.md")]), config));
    expect(r["paths"]?.result).toBe("failed");
    expect(r["paths"]?.evidence).toContain("src/db/pool.ts");
    expect(r["paths"]?.evidence).toContain("README.md");
    expect(r["paths"]?.annotations.map((a) => a.path)).toEqual(["src/db/pool.ts", "README.md"]);
  });

  it("checks both names of a rename: moving a file out of the allowed paths fails", () => {
    const { patch: _drop, ...renamed } = file("src/db/client.ts", 0, 0, { status: "renamed", previousPath: "src/http/client.ts" });
    const r = byName(runMechanicalChecks(brief(), diff([renamed]), config));
    expect(r["paths"]?.result).toBe("failed");
    expect(r["paths"]?.evidence).toContain("src/db/client.ts");
    expect(r["diff"]?.result).toBe("passed");
  });

  it("checks both names of a rename: moving a file into the allowed paths from outside fails", () => {
    const r = byName(runMechanicalChecks(brief(), diff([file("src/http/util.ts", 1, 1, { status: "renamed", previousPath: "lib/util.ts" })]), config));
    expect(r["paths"]?.result).toBe("failed");
    expect(r["paths"]?.evidence).toContain("lib/util.ts");
  });

  it("reads allowed paths as gitignore patterns, case-sensitively", () => {
    const b = brief({ constraints: { paths: ["docs/", "*.md", "!secret.md"] } });
    const r = byName(runMechanicalChecks(b, diff([file("docs/a/b.txt"), file("pkg/README.md"), file("secret.md"), file("DOCS/x.txt")]), config));
    expect(r["paths"]?.evidence).toContain("secret.md");
    expect(r["paths"]?.evidence).toContain("DOCS/x.txt");
    expect(r["paths"]?.evidence).not.toContain("pkg/README.md");
  });

  it("fails over the cap and says by how much", () => {
    const r = byName(runMechanicalChecks(brief({ size_cap: 100 }), diff([file("src/http/a.ts", 80, 30)]), config));
    expect(r["size"]?.result).toBe("failed");
    expect(r["size"]?.evidence).toBe("110 changed lines > size_cap 100");
  });

  it("does not count lock files beside a manifest of the base, outside the brief's code paths", () => {
    const paths = ["src/http/**", "package.json", "package-lock.json", "web/yarn.lock"];
    const r = byName(runMechanicalChecks(brief({ size_cap: 100, constraints: { paths } }), diff([file("src/http/a.ts", 50), file("package-lock.json", 4000, 900), file("web/yarn.lock", 10)]), config, new Set(["package.json", "web/package.json"])));
    expect(r["size"]?.result).toBe("passed");
    expect(r["size"]?.evidence).toContain("50 changed lines (4960 − 4910 in ignored package-lock.json, web/yarn.lock)");
  });

  it.each([
    ["a lock file under a code path of the brief (src/** covers src/lib/yarn.lock)", ["src/**"], [file("src/lib/yarn.lock", 3000, 0, { status: "added" })], ["src/lib/package.json"], "inside the brief's code paths"],
    ["a lock file with no manifest beside it at the base", ["src/http/**", "**/yarn.lock"], [file("lib/yarn.lock", 3000, 0, { status: "added" })], [], "no package.json beside it at the base"],
    ["a lock file beside a manifest the same PR adds", ["src/http/**", "**/Cargo.toml", "**/Cargo.lock"], [file("tools/Cargo.toml", 3, 0, { status: "added" }), file("tools/Cargo.lock", 3000, 0, { status: "added" })], [], "no Cargo.toml beside it"],
    ["a lock file beside a manifest the same PR removes", ["src/http/**", "go.mod", "go.sum"], [file("go.mod", 0, 3, { status: "removed" }), file("go.sum", 3000)], ["go.mod"], "no go.mod beside it"],
    ["a lock file beside the base's manifest of another ecosystem", ["src/http/**", "go.sum"], [file("go.sum", 3000)], ["package.json"], "no go.mod beside it"],
    ["a brief that allows everything: every lock file is under its code paths", ["**"], [file("package-lock.json", 3000)], ["package.json"], "inside the brief's code paths"],
  ])("counts %s", (_name, paths, files, atBase, why) => {
    const r = byName(runMechanicalChecks(brief({ size_cap: 100, constraints: { paths } }), diff(files), config, new Set(atBase)));
    expect(r["size"]?.result).toBe("failed");
    expect(r["size"]?.evidence).toContain(why);
  });

  it("asks the base only for the manifests the diff does not settle, at most 20", () => {
    const paths = ["src/http/**", "**/package.json", "**/yarn.lock", "**/go.sum"];
    expect(manifestsToLookUp([file("a/yarn.lock"), file("a/package.json"), file("b/yarn.lock"), file("src/http/go.sum"), file("c/go.sum", 1, 0, { status: "renamed", previousPath: "c/x.ts" }), file("d/x.ts")], paths)).toEqual(["b/package.json"]);
    expect(manifestsToLookUp(Array.from({ length: 30 }, (_, i) => file(`p${i}/yarn.lock`)), paths)).toHaveLength(20);
  });

  it("counts a file renamed to a lock-file name: hiding code under yarn.lock does not work", () => {
    const r = byName(runMechanicalChecks(brief({ size_cap: 100, constraints: { paths: ["**"] } }), diff([file("yarn.lock", 500, 0, { status: "renamed", previousPath: "src/big.ts" })]), config));
    expect(r["size"]?.result).toBe("failed");
  });

  it("honours configured ignore globs such as generated files", () => {
    const custom = compileGateConfig({ ...DEFAULT_GATE_CONFIG, sizeIgnore: ["src/http/generated/**"] });
    const r = byName(runMechanicalChecks(brief({ size_cap: 10 }), diff([file("src/http/generated/api.ts", 5000)]), custom));
    expect(r["size"]?.result).toBe("passed");
  });

  it("flags sensitive paths as needing a human even when the brief allows them", () => {
    const r = byName(runMechanicalChecks(brief({ constraints: { paths: ["**"] } }), diff([file(".github/workflows/ci.yml"), file("db/migrations/001.sql")]), config));
    expect(r["sensitive"]?.result).toBe("failed");
    expect(r["sensitive"]?.needsHuman).toBe(true);
    expect(r["sensitive"]?.evidence).toContain(".github/workflows/ci.yml (.github/**)");
    expect(r["sensitive"]?.annotations).toHaveLength(2);
  });

  it("treats a PR editing the briefs as sensitive", () => {
    const r = byName(runMechanicalChecks(brief({ constraints: { paths: ["**"] } }), diff([file("briefs/http-retry-after.yml", 1, 1)]), config));
    expect(r["sensitive"]?.result).toBe("failed");
  });

  it("cannot check past 3,000 files, but still fails an off-brief file it did see", () => {
    const files = Array.from({ length: 3000 }, (_, i) => file(`src/http/f${i}.ts`));
    const d = { files, totals: { additions: 3001, deletions: 0, changed_files: 3001 } };
    const r = byName(runMechanicalChecks(brief({ size_cap: 100_000 }), d, config));
    expect(r["diff"]?.result).toBe("could-not-check");
    expect(r["diff"]?.evidence).toContain("3001 files changed");
    expect(r["paths"]?.result).toBe("could-not-check");
    expect(r["size"]?.result).toBe("could-not-check");
    expect(r["sensitive"]?.result).toBe("could-not-check");
    const withBad = { ...d, files: [...files.slice(1), file("src/db/x.ts")] };
    expect(byName(runMechanicalChecks(brief({ size_cap: 100_000 }), withBad, config))["paths"]?.result).toBe("failed");
  });

  it("cannot check when the file count disagrees with the totals", () => {
    const d = { ...diff([file("src/http/a.ts")]), totals: { additions: 1, deletions: 0, changed_files: 2 } };
    const r = byName(runMechanicalChecks(brief(), d, config));
    expect(r["diff"]?.evidence).toContain("the file list has 1 files but the totals say 2");
    expect(r["size"]?.result).toBe("could-not-check");
  });

  it("cannot check a file that came without a patch and with zero counts (GitHub's silent truncation)", () => {
    const { patch: _p, ...truncated } = file("src/http/huge.ts", 0, 0);
    const d = { files: [file("src/http/a.ts", 10), truncated], totals: { additions: 25_010, deletions: 0, changed_files: 2 } };
    const r = byName(runMechanicalChecks(brief({ size_cap: 100_000 }), d, config));
    expect(r["diff"]?.result).toBe("could-not-check");
    expect(r["diff"]?.evidence).toContain("src/http/huge.ts");
    expect(r["diff"]?.evidence).toContain("rows add up to +10");
    expect(r["size"]?.result).toBe("could-not-check");
    expect(r["diff"]?.annotations[0]?.path).toBe("src/http/huge.ts");
  });

  it("accepts a binary file the source marked binary, and a pure rename, without a patch", () => {
    const { patch: _a, ...bin } = file("src/http/logo.png", 0, 0, { binary: true });
    const { patch: _b, ...ren } = file("src/http/b.ts", 0, 0, { status: "renamed", previousPath: "src/http/a.ts" });
    expect(runMechanicalChecks(brief(), diff([bin, ren]), config).every((c) => c.result === "passed")).toBe(true);
  });
});

describe("acceptance check", () => {
  it.each([
    [{ kind: "exited", command: "npm test", exitCode: 0, ms: 1200, tail: "ok" } as const, "passed", "exited 0 after 1.2s\nok"],
    [{ kind: "exited", command: "npm test", exitCode: 1, ms: 10, tail: "1 failing" } as const, "failed", "exited 1"],
    [{ kind: "timed-out", command: "npm test", timeoutSeconds: 600, tail: "" } as const, "failed", "within its timeout of 10m"],
    [{ kind: "killed", command: "npm test", signal: "SIGKILL", tail: "" } as const, "failed", "killed by SIGKILL"],
    [{ kind: "not-run", command: "npm test", reason: "no checkout" } as const, "could-not-check", "not run: no checkout"],
  ])("%o is %s", (run, result, evidence) => {
    const c = checkAcceptance(run);
    expect(c.result).toBe(result);
    expect(c.evidence).toContain(evidence);
  });
});

describe("verdict", () => {
  const c = (result: CheckResult["result"]): CheckResult => ({ check: "paths", result, evidence: "", annotations: [] });
  it.each([
    [[], "could-not-check"],
    [[c("passed"), c("passed")], "pass"],
    [[c("passed"), c("could-not-check")], "could-not-check"],
    [[c("could-not-check"), c("failed")], "fail"],
    [[c("failed"), c("passed")], "fail"],
  ] as const)("%j combines to %s", (results, verdict) => {
    expect(combineVerdict(results)).toBe(verdict);
  });
});
