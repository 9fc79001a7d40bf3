/** package.json names files that exist after `npm run build` (which `npm ci` runs through `prepare`). */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { main: string; types: string; exports: Record<string, string | { types: string; default: string }>; files: string[]; bin: Record<string, string> };

const targets = Object.entries(pkg.exports).flatMap(([subpath, target]) => (typeof target === "string" ? [[subpath, target] as const] : [[subpath, target.default] as const, [`${subpath} (types)`, target.types] as const]));

describe("package.json entry points", () => {
  it.each(targets)("%s → %s exists (lib/ from `npm run build`)", (_subpath, target) => {
    expect(existsSync(join(ROOT, target)), `${target} is missing: run npm run build`).toBe(true);
    // Every lib/ target is built from a source file that is there.
    if (target.startsWith("./lib/")) expect(existsSync(join(ROOT, target.replace(/^\.\/lib\//, "src/").replace(/\.d\.ts$|\.js$/, ".ts")))).toBe(true);
    // What the package ships includes it.
    // npm always ships package.json; the rest must be under "files".
    expect(target === "./package.json" || pkg.files.some((f) => target.replace(/^\.\//, "").startsWith(f))).toBe(true);
  });

  it("main and types are the root export", () => {
    expect(pkg.exports["."]).toEqual({ types: pkg.types, default: pkg.main });
    expect(Object.values(pkg.bin).every((b) => existsSync(join(ROOT, b)))).toBe(true);
  });

  it("the root entry loads by the package's own name and gives the documented functions", async () => {
    const lib = (await import("bosun")) as Record<string, unknown>;
    for (const name of ["bosunApp", "startAppServer", "parseBriefYaml", "parseIssueBody", "parseConfig", "configJsonSchema"]) expect(typeof lib[name], name).toBe("function");
    const schema = (await import("bosun/schema.json", { with: { type: "json" } })) as { default: { $id: string } };
    expect(schema.default.$id).toMatch(/bosun-config\.schema\.json$/);
  });
});

describe("what the docs tell users to import", () => {
  // docs/agent-loop.md once told users to import `bosun/lib/...`, which the exports refuse.
  const docs = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
  const imports = docs.flatMap((file) =>
    [...readFileSync(join(ROOT, file), "utf8").matchAll(/^import (type )?\{([^}]*)\} from "(bosun(?:\/[^"]*)?)";$/gm)].map((m) => ({ file, specifier: m[3] ?? "", values: (m[1] === undefined ? (m[2] ?? "").split(",") : []).map((n) => n.trim()).filter((n) => n !== "" && !n.startsWith("type ")) })),
  );

  it("the docs import from the package at all (this test reads them)", () => {
    expect(imports.map((i) => i.specifier)).toContain("bosun/agent-loop");
  });

  it.each(imports.map((i) => [`${i.file}: ${i.specifier}`, i] as const))("%s loads by the package's name and gives what is named", async (_name, i) => {
    const lib = (await import(i.specifier)) as Record<string, unknown>;
    for (const name of i.values) expect(lib[name], `${i.file} imports ${name} from ${i.specifier}`).toBeDefined();
  });
});
