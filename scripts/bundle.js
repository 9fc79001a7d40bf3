#!/usr/bin/env node
// Bundles the Action (src/action/index.ts) into one ESM file, dist/index.js, committed so the
// Action runs without `npm install`. `node scripts/bundle.js --outfile PATH` writes elsewhere
// (the check-dist workflow and the cold-start bench use that to compare or measure).
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const at = process.argv.indexOf("--outfile");
const outfile = at > 0 ? process.argv[at + 1] : `${root}dist/index.js`;

// @actions/core imports @actions/http-client for OIDC tokens only (core.getIDToken), and that
// imports undici's ProxyAgent at the top: 400 KB of undici parsed and started on every run, for a
// call Bosun never makes (actions/toolkit#1621, #1697). The bundle gets a ProxyAgent that says so.
const noUndici = {
  name: "no-undici",
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, (args) => (args.importer.includes("@actions/http-client") ? { path: "undici", namespace: "no-undici" } : undefined));
    b.onLoad({ filter: /.*/, namespace: "no-undici" }, () => ({
      contents: 'export class ProxyAgent { constructor() { throw new Error("Bosun\'s Action bundle leaves out undici: @actions/http-client proxies (OIDC tokens) are not available"); } }',
      loader: "js",
    }));
  },
};

await build({
  plugins: [noUndici],
  // Module paths in the bundle are relative to this, so the bundle is the same bytes on any checkout path.
  absWorkingDir: root,
  entryPoints: [`${root}src/action/index.ts`],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Some dependencies are CommonJS and call require(): give the ESM bundle one.
  banner: { js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
  legalComments: "none",
  // Smaller text to read and parse: the cold start of every run.
  minify: true,
  keepNames: true,
  logLevel: "warning",
});
console.error(`bundled ${outfile}`);
