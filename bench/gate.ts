// The gate's mechanical checks alone (no acceptance command, no network): a 3,000-file,
// 100,000-line diff against 50 glob rules. Prints {files, lines, rules, ms, peak_rss_mb} last.
import { parseBriefObject } from "../src/core/brief/parse-brief.js";
import type { ChangedFile } from "../src/core/gate/changed-file.js";
import { DEFAULT_GATE_CONFIG } from "../src/core/gate/gate-config.js";
import { compileGateConfig, runMechanicalChecks } from "../src/core/gate/run-mechanical-checks.js";

const FILES = 3000;
const LINES = 100_000;
const dirs = ["src", "test", "lib", "docs", "pkg", "cmd", "internal", "web"];

// 50 rules: 40 allowed paths (gitignore-style) and 10 sensitive globs; the size-ignore defaults on top.
const allowed = Array.from({ length: 40 }, (_, i) => `${dirs[i % dirs.length]}/m${i}/**`);
const sensitive = [".github/**", "briefs/**", "**/CODEOWNERS", "**/migrations/**", "**/auth/**", "**/*.pem", "**/*.key", "infra/**", "**/secrets/**", "deploy/**"];
const parsed = parseBriefObject({ id: "bench", goal: "bench", constraints: { paths: allowed }, acceptance: { command: "true" }, size_cap: 200_000 }, { name: "bench" });
if (!parsed.ok) throw new Error("bench brief invalid");

const perFile = Math.floor(LINES / FILES);
const files: ChangedFile[] = Array.from({ length: FILES }, (_, i) => {
  const additions = i < LINES % FILES ? perFile + 1 : perFile;
  const path = `${dirs[i % dirs.length]}/m${i % 40}/deep/er/file-${i}.ts`;
  const patch = `@@ -1,0 +1,${additions} @@\n${"+const x = 1;\n".repeat(additions)}`;
  return i % 50 === 0 ? { path, previousPath: `old/file-${i}.ts`, status: "renamed", additions, deletions: 0, patch } : { path, status: "modified", additions, deletions: 0, patch };
});
const lines = files.reduce((n, f) => n + f.additions + f.deletions, 0);
const diff = { files, totals: { additions: lines, deletions: 0, changed_files: FILES } };

const runs: number[] = [];
let peak = process.memoryUsage().rss;
for (let i = 0; i < 7; i++) {
  const started = performance.now();
  // Compiling is part of the cost of a gate run: do it inside the timing.
  const config = compileGateConfig({ ...DEFAULT_GATE_CONFIG, sensitive });
  const checks = runMechanicalChecks(parsed.brief, diff, config);
  runs.push(performance.now() - started);
  peak = Math.max(peak, process.memoryUsage().rss);
  if (i === 0) console.error(checks.map((c) => `${c.check}: ${c.result}`).join(", "));
}
const sorted = [...runs].sort((a, b) => a - b);
console.error(`first run ${runs[0]?.toFixed(1)} ms; median of ${runs.length} ${sorted[3]?.toFixed(1)} ms`);
console.log(JSON.stringify({ files: FILES, lines, rules: allowed.length + sensitive.length, ms: Number((sorted[3] ?? 0).toFixed(1)), first_ms: Number((runs[0] ?? 0).toFixed(1)), peak_rss_mb: Math.round(peak / 1024 / 1024) }));
