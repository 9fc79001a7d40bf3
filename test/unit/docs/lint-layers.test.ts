/**
 * The lint that keeps the house in order can fail: a planted cycle (through `./x.js` specifiers,
 * which must resolve to `./x.ts` as tsc resolves them) and imports that point up a layer or
 * sideways between faces are errors. A rule that cannot resolve the imports checks nothing.
 * (That src itself has no cycle and no upward import is `npm run lint`'s job, in `npm test`.)
 */
import { join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
// The project's own config without the type-aware rules (they need the TypeScript project, which
// is slow to load and does not hold a file that is not on disk), every other rule as configured;
// the planted fixtures are outside the project's own lint, so ignores are off here.
const virtual = new ESLint({
  cwd: ROOT,
  ignore: false,
  overrideConfig: [{ files: ["**/*.ts"], languageOptions: { parserOptions: { projectService: false, project: null } }, rules: { "@typescript-eslint/no-floating-promises": "off", "@typescript-eslint/no-misused-promises": "off" } }],
});

const rulesHit = async (file: string, text?: string): Promise<string[]> => {
  const results = text === undefined ? await virtual.lintFiles([join(ROOT, file)]) : await virtual.lintText(text, { filePath: join(ROOT, file) });
  return results.flatMap((r) => r.messages.map((m) => `${m.ruleId ?? "parse"}: ${m.message.split("\n")[0] ?? ""}`));
};

describe("the lint of the layers and cycles", () => {
  it("finds a planted two-file cycle through .js specifiers", async () => {
    const hits = await rulesHit("test/fixtures/lint-cycle/ping.ts");
    expect(hits.some((h) => h.startsWith("import-x/no-cycle"))).toBe(true);
  }, 60_000);

  it.each([
    ["src/core/scheduler/planted.ts", 'import { createOctokit } from "../../adapters/github/create-octokit.js";\nexport const x = createOctokit;\n', "src/core is pure"],
    ["src/core/scheduler/planted.ts", 'import type { GateReader } from "../../ports/gate-github.js";\nexport type X = GateReader;\n', "src/core is pure"],
    ["src/adapters/github/planted.ts", 'import type { ActionIo } from "../../action/action-io.js";\nexport type X = ActionIo;\n', "src/adapters stand below the faces"],
    ["src/action/planted.ts", 'import type { AppOctokit } from "../app/app-octokit.js";\nexport type X = AppOctokit;\n', "the Action face does not import another face"],
    ["src/app/planted.ts", 'import type { ActionIo } from "../action/action-io.js";\nexport type X = ActionIo;\n', "the App face does not import another face"],
  ])("refuses %s importing up or sideways (%#)", async (file, text, message) => {
    const hits = await rulesHit(file, text);
    expect(hits.some((h) => h.startsWith("no-restricted-imports") && h.includes(message)), hits.join("\n")).toBe(true);
  }, 60_000);
});
