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
  // The onboarding pull request's commit adds .github/workflows/* (GitHub refuses that to an App without it).
  workflows: /WORKFLOW_DIR[\s\S]*createCommit/,
};
const EVENTS: Record<string, RegExp> = {
  issues: /"issues\.(labeled|edited)"/,
  issue_comment: /"issue_comment\.created"/,
  pull_request: /"pull_request"/,
  // The gate's verdict: an item in review moves on (refused, retried, or waits for its merge).
  check_run: /"check_run\.completed"/,
  workflow_run: /"workflow_run\.completed"/,
  create: /\["create", "delete"\]/,
  delete: /\["create", "delete"\]/,
  push: /app\.on\("push"/,
};

/**
 * What the shipped workflows ask of this App's token (`actions/create-github-app-token` with
 * `permission-<name>: <level>`): the trusted jobs post `bosun/gate` and `bosun/separation`, and
 * land work, as the App, so the App must hold those permissions too.
 */
function workflowNeeds(): Record<string, "read" | "write"> {
  const dir = join(ROOT, "docs/workflows");
  const needs: Record<string, "read" | "write"> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".yml"))) {
    for (const m of readFileSync(join(dir, file), "utf8").matchAll(/^\s*permission-([a-z-]+):\s*(read|write)\s*$/gm)) {
      const name = (m[1] ?? "").replace(/-/g, "_");
      if (needs[name] !== "write") needs[name] = m[2] as "read" | "write";
    }
  }
  return needs;
}

describe("app.yml", () => {
  it("asks for exactly the permissions the code and the shipped workflows use, at the level they use them", () => {
    const fromWorkflows = workflowNeeds();
    expect(Object.keys(manifest.default_permissions).sort()).toEqual([...new Set([...Object.keys(NEEDS), ...Object.keys(fromWorkflows)])].sort());
    for (const [permission, use] of Object.entries(NEEDS)) expect(code, permission).toMatch(use);
    for (const [permission, level] of Object.entries(fromWorkflows)) if (level === "write") expect(manifest.default_permissions[permission], permission).toBe("write");
    // The App's own process reads the gate's check runs back for the dashboard's metrics.
    expect(code).toMatch(/rest\.checks\.listForRef|check-runs/);
    expect(manifest.default_permissions).toMatchObject({ issues: "write", contents: "write", actions: "write", metadata: "read", checks: "write", statuses: "write" });
  });

  it("subscribes to exactly the events the code handles", () => {
    expect([...manifest.default_events].sort()).toEqual(Object.keys(EVENTS).sort());
    for (const [event, handler] of Object.entries(EVENTS)) expect(code, event).toMatch(handler);
    // No handler for the events it does not subscribe to (a run's `event` field may still be compared with their names).
    for (const unused of ["pull_request_review", "deployment_status"]) expect(code).not.toMatch(new RegExp(`app\\.on\\([^)]*"${unused}`));
  });

  it("handles the installation events GitHub sends every App, and lists neither (they cannot be subscribed to)", () => {
    expect(code).toMatch(/"installation\.created", "installation_repositories\.added"/);
    expect(manifest.default_events).not.toContain("installation");
    expect(manifest.default_events).not.toContain("installation_repositories");
  });
});
