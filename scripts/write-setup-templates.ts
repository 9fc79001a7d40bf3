// `npm run templates`: regenerates src/core/setup/setup-templates.ts from docs/workflows/, the issue
// form and app.yml, so `bosun init` and the onboarding pull request write exactly what the docs ship.
// test/unit/setup/setup-templates.test.ts fails when the committed module is stale.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { setupTemplatesText } from "../src/core/setup/setup-templates-text.js";

const root = new URL("../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const workflows = Object.fromEntries(
  readdirSync(new URL("docs/workflows/", root))
    .filter((f) => f.endsWith(".yml"))
    .map((f) => [f, read(`docs/workflows/${f}`)]),
);
writeFileSync(new URL("src/core/setup/setup-templates.ts", root), setupTemplatesText({ workflows, issueForm: read(".github/ISSUE_TEMPLATE/bosun-brief.yml"), appManifest: read("app.yml") }));
