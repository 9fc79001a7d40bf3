/** The templates `bosun init` and the onboarding pull request write are the shipped files, byte for byte. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { setupTemplatesText } from "../../../src/core/setup/setup-templates-text.js";
import { APP_PERMISSIONS, ISSUE_FORM_TEMPLATE, WORKFLOW_TEMPLATES } from "../../../src/core/setup/setup-templates.js";

const ROOT = join(import.meta.dirname, "../../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const shipped = readdirSync(join(ROOT, "docs/workflows")).filter((f) => f.endsWith(".yml"));

describe("src/core/setup/setup-templates.ts", () => {
  it("is what `npm run templates` generates from today's files (run it after changing docs/workflows, the issue form or app.yml)", () => {
    const workflows = Object.fromEntries(shipped.map((f) => [f, read(`docs/workflows/${f}`)]));
    expect(read("src/core/setup/setup-templates.ts")).toBe(setupTemplatesText({ workflows, issueForm: read(".github/ISSUE_TEMPLATE/bosun-brief.yml"), appManifest: read("app.yml") }));
  });

  it.each(shipped)("holds docs/workflows/%s byte for byte", (file) => {
    expect(WORKFLOW_TEMPLATES[file]).toBe(read(`docs/workflows/${file}`));
  });

  it("holds the issue form and app.yml's permissions", () => {
    expect(ISSUE_FORM_TEMPLATE).toBe(read(".github/ISSUE_TEMPLATE/bosun-brief.yml"));
    expect(Object.keys(WORKFLOW_TEMPLATES).sort()).toEqual([...shipped].sort());
    expect(APP_PERMISSIONS).toMatchObject({ checks: "write", statuses: "write", metadata: "read" });
  });
});
