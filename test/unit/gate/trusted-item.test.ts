import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gateTarget } from "../../../src/action/gate/gate-target.js";
import type { ActionEvent } from "../../../src/action/action-io.js";
import { findPullHints } from "../../../src/core/gate/find-brief-link.js";
import { nameItem, namedIssues } from "../../../src/core/gate/resolve-trusted-item.js";

const hints = (body: string | null, labels: string[] = []) => findPullHints(body, labels);

describe("naming the item from Bosun's side; the PR's hints may only agree", () => {
  it.each([
    ["the branch Bosun named", { headRef: "bosun/5-fix", hints: hints(null) }, { kind: "issue", issue: 5 }],
    ["the branch and an agreeing Closes", { headRef: "bosun/5-fix", hints: hints("Closes #5") }, { kind: "issue", issue: 5 }],
    ["a dispatch input and the branch agreeing", { headRef: "bosun/5-fix", dispatchItem: "5", hints: hints(null) }, { kind: "issue", issue: 5 }],
    ["a dispatch input on an ordinary branch", { headRef: "copilot/fix-5", dispatchItem: "#5", hints: hints(null) }, { kind: "issue", issue: 5 }],
    ["a branch bosun/<brief-id>", { headRef: "bosun/retry", hints: hints("Closes #12") }, { kind: "brief", briefId: "retry" }],
    ["Closes alone (needs a claim record)", { headRef: "copilot/fix-7", hints: hints("Fixes #7") }, { kind: "hinted", issue: 7 }],
    ["a branch that names #5 and a body that closes #7", { headRef: "bosun/5-fix", hints: hints("Closes #7") }, { kind: "conflict" }],
    ["a second Closes after the agreeing one", { headRef: "bosun/5-fix", hints: hints("Closes #5, fixes #7") }, { kind: "conflict" }],
    ["a brief label on a dispatched item", { headRef: "bosun/5-fix", hints: hints(null, ["bosun:brief:loose"]) }, { kind: "conflict" }],
    ["a brief label that disagrees with bosun/<brief-id>", { headRef: "bosun/retry", hints: hints(null, ["bosun:brief:other"]) }, { kind: "conflict" }],
    ["a dispatch input that disagrees with the branch", { headRef: "bosun/5-fix", dispatchItem: "7", hints: hints(null) }, { kind: "conflict" }],
    ["a dispatch input that is neither a number nor an id", { headRef: "main", dispatchItem: "$(rm -rf /)", hints: hints(null) }, { kind: "conflict" }],
    ["two Closes and no branch", { headRef: "feature", hints: hints("Closes #7\nCloses #8") }, { kind: "conflict" }],
    ["a label alone", { headRef: "feature", hints: hints(null, ["bosun:brief:loose"]) }, { kind: "none" }],
    ["nothing at all", { headRef: "feature", hints: hints("no link") }, { kind: "none" }],
    ["an issue-<n> branch a human picked", { headRef: "mona/issue-5", hints: hints(null) }, { kind: "none" }],
    ["a fork's branch named bosun/<n>-…", { headRef: "bosun/5-fix", fromFork: true, hints: hints(null) }, { kind: "none" }],
    ["a fork's Closes", { headRef: "patch-1", fromFork: true, hints: hints("Closes #5") }, { kind: "none" }],
    ["a trusted dispatch input for a fork's PR", { headRef: "bosun/7-x", fromFork: true, dispatchItem: "5", hints: hints("Closes #5") }, { kind: "issue", issue: 5 }],
  ])("%s", (_name, evidence, expected) => {
    expect(nameItem(evidence)).toMatchObject(expected);
  });

  it("no body or label the PR writes moves a dispatched item to another issue or brief", () => {
    const text = fc.array(fc.oneof(fc.constantFrom("Closes #", "fixes #", "Resolves: #", " ", "\n", "bosun:brief:"), fc.nat(30).map(String), fc.string()), { maxLength: 12 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, fc.array(fc.oneof(fc.constant("bosun:brief:5"), fc.constant("bosun:brief:loose"), fc.string()), { maxLength: 4 }), (body, labels) => {
        const named = nameItem({ headRef: "bosun/5-fix", hints: findPullHints(body, labels) });
        expect(named.kind === "conflict" || (named.kind === "issue" && named.issue === 5)).toBe(true);
      }),
    );
  });

  it("separation excludes the requesters of every issue anything names", () => {
    expect(namedIssues({ headRef: "bosun/5-fix", dispatchItem: "6", hints: hints("Closes #7") }).sort()).toEqual([5, 6, 7]);
  });
});

const event = (name: string, payload: Record<string, unknown>): ActionEvent => ({ name, payload, repo: { owner: "acme", repo: "app" }, sha: "", ref: "", runId: 1, serverUrl: "https://github.com" });
const A = "a".repeat(40);

describe("the commit a gate run judges comes from its event", () => {
  it.each([
    ["pull_request_target", event("pull_request_target", { pull_request: { number: 3, head: { sha: A } } }), { ok: true, number: 3, headSha: A }],
    ["pull_request", event("pull_request", { pull_request: { number: 3, head: { sha: A } } }), { ok: true, number: 3, headSha: A }],
    ["workflow_run with its one pull request", event("workflow_run", { workflow_run: { head_sha: A, pull_requests: [{ number: 3, head: { sha: A } }, { number: 4, head: { sha: "b".repeat(40) } }] } }), { ok: true, number: 3, headSha: A, acceptanceRun: { path: "", event: "" } }],
    ["workflow_run with its workflow's path and event", event("workflow_run", { workflow_run: { head_sha: A, path: ".github/workflows/bosun-acceptance.yml", event: "pull_request", pull_requests: [{ number: 3, head: { sha: A } }] } }), { ok: true, number: 3, headSha: A, acceptanceRun: { path: ".github/workflows/bosun-acceptance.yml", event: "pull_request" } }],
    ["workflow_dispatch with the inputs and its sender", event("workflow_dispatch", { inputs: { "pull-request": "3", "head-sha": A.toUpperCase(), item: "5", "acceptance-run": "77" }, sender: { login: "maia" } }), { ok: true, number: 3, headSha: A, dispatchItem: "5", dispatch: { sender: "maia", acceptanceRun: 77 } }],
  ])("%s", (_name, e, expected) => {
    expect(gateTarget(e)).toEqual(expected);
  });

  it.each([
    ["a pull_request event without head.sha", event("pull_request", { pull_request: { number: 3 } }), "head.sha"],
    ["a workflow_run of a fork (no pull requests listed)", event("workflow_run", { workflow_run: { head_sha: A, pull_requests: [] } }), "fork"],
    ["a workflow_dispatch without head-sha", event("workflow_dispatch", { inputs: { "pull-request": "3" } }), "head-sha"],
    ["a push", event("push", {}), "'push'"],
  ])("refuses %s, saying what is missing", (_name, e, says) => {
    const t = gateTarget(e);
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.reason).toContain(says);
  });
});
