/** app.yml asks for what the app's code uses, and no more (least privilege, docs/app.md). */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const manifest = parse(readFileSync(join(ROOT, "app.yml"), "utf8")) as { default_permissions: Record<string, string>; default_events: string[] };

/** Every .ts file the app's process loads: src/app and the adapters it imports from. */
function source(dir: string): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? source(path) : path.endsWith(".ts") ? readFileSync(path, "utf8") : ""))
    .join("\n");
}
const code = [source(join(ROOT, "src/app")), source(join(ROOT, "src/adapters/github"))].join("\n");

// What each permission is for, by the calls that need it (GitHub's "permissions required for GitHub Apps").
const NEEDS: Record<string, RegExp> = {
  issues: /rest\.issues\.(createComment|addLabels|create\b|update\b)/,
  contents: /rest\.git\.(createRef|updateRef|createCommit)/,
  pull_requests: /rest\.pulls\.list/,
  actions: /actions\/workflows\/\{workflow_id\}\/dispatches/,
  metadata: /getCollaboratorPermissionLevel/,
};
const EVENTS: Record<string, RegExp> = {
  issues: /"issues\.(labeled|edited)"/,
  issue_comment: /"issue_comment\.created"/,
  pull_request: /"pull_request\.(opened|closed)"/,
  workflow_run: /"workflow_run\.completed"/,
  create: /\["create", "delete"\]/,
  delete: /\["create", "delete"\]/,
  push: /app\.on\("push"/,
};

describe("app.yml", () => {
  it("asks for exactly the permissions the code uses, at the level it uses them", () => {
    expect(Object.keys(manifest.default_permissions).sort()).toEqual(Object.keys(NEEDS).sort());
    for (const [permission, use] of Object.entries(NEEDS)) expect(code, permission).toMatch(use);
    expect(manifest.default_permissions).toEqual({ issues: "write", contents: "write", pull_requests: "read", actions: "write", metadata: "read" });
  });

  it("subscribes to exactly the events the code handles", () => {
    expect([...manifest.default_events].sort()).toEqual(Object.keys(EVENTS).sort());
    for (const [event, handler] of Object.entries(EVENTS)) expect(code, event).toMatch(handler);
    for (const unused of ["pull_request_review", "check_run", "deployment_status"]) expect(code).not.toContain(`"${unused}`);
  });
});
