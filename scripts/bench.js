#!/usr/bin/env node
// `npm run bench -- NAME...` runs bench/NAME.ts (no NAME: every benchmark). Each prints its figures
// as one JSON object on its last line. Benchmarks measure; they never fail a build.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const benchDir = fileURLToPath(new URL("../bench/", import.meta.url));
const tsx = new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url).href;
const known = readdirSync(benchDir).filter((f) => f.endsWith(".ts") && !f.startsWith("_")).map((f) => f.slice(0, -3)).sort();
const names = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const unknown = names.filter((n) => !known.includes(n));
if (unknown.length > 0) {
  console.error(`unknown benchmark: ${unknown.join(", ")}; known: ${known.join(", ")}`);
  process.exit(2);
}
let status = 0;
for (const name of names.length > 0 ? names : known) {
  console.error(`== bench ${name}`);
  const run = spawnSync(process.execPath, ["--expose-gc", "--import", tsx, `${benchDir}${name}.ts`], { stdio: "inherit" });
  if (run.status !== 0) status = 1;
}
process.exit(status);
