/** Which webhook deliveries set off a tick now (each costs a round of reads on the replica that hears it), and which only drop a cache. */
import { describe, expect, it } from "vitest";
import { ticksNow } from "../../../src/app/scheduler/ticking-delivery.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";

const configOf = (yaml: string) => {
  const parsed = parseConfig(yaml);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
};
const WORKFLOW_ONLY = configOf("pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml, batch: true}}\n");
const WITH_COPILOT = configOf("pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n  copilot: {size: 1, dispatch: {kind: assign, assignee: copilot-swe-agent}}\n");

describe("ticksNow", () => {
  it.each([
    ["a work run (dispatched) ended", { name: "workflow_run", runEvent: "workflow_dispatch" }, true],
    ["a verify run (set off by a deployment's status) ended", { name: "workflow_run", runEvent: "deployment_status" }, true],
    ["a gate or CI run on a pull request ended (its check run is what matters)", { name: "workflow_run", runEvent: "pull_request_target" }, false],
    ["the gate's run completed, failed: the item is landed for a retry or a human", { name: "check_run", checkStatus: "completed", checkConclusion: "failure" }, true],
    ["the gate's run completed, passed: the item waits for separation and a merge (people's moves)", { name: "check_run", checkStatus: "completed", checkConclusion: "success" }, false],
    ["the gate's run only started: no verdict yet", { name: "check_run", checkStatus: "in_progress" }, false],
    ["a pull request merged or closed", { name: "pull_request", action: "closed" }, true],
    ["a pull request reopened", { name: "pull_request", action: "reopened" }, true],
    ["a push to a pull request: its gate's verdict is what moves it", { name: "pull_request", action: "synchronize" }, false],
    ["a pull request's body edited", { name: "pull_request", action: "edited" }, false],
    ["a pull request labelled", { name: "pull_request", action: "labeled" }, false],
    ["an issue labelled (an approval)", { name: "issues", action: "labeled" }, true],
    ["an issue's label removed (an approval withdrawn, a hold lifted)", { name: "issues", action: "unlabeled" }, true],
    ["an issue's body edited (its brief)", { name: "issues", action: "edited" }, true],
    ["an issue closed (a blocker done, a worker cancelled)", { name: "issues", action: "closed" }, true],
    ["an issue closed under an item this replica last saw held (its worker is cancelled)", { name: "issues", action: "closed", itemState: "held" }, true],
    ["an issue closed under an item this replica last saw queued (it is withdrawn)", { name: "issues", action: "closed", itemState: "approved" }, true],
    ["an issue closed under an item in review (a merge closes both: the pull request's webhook moves it)", { name: "issues", action: "closed", itemState: "review" }, false],
    ["an issue closed under an item that ended", { name: "issues", action: "closed", itemState: "settled" }, false],
    ["an issue labelled, whatever its item's state", { name: "issues", action: "labeled", itemState: "settled" }, true],
  ] as const)("%s → %s", (_what, delivery, expected) => {
    expect(ticksNow(delivery, WORKFLOW_ONLY)).toBe(expected);
  });

  it("a pull request opened: only where a worker is not a workflow run (there the opening is how its end shows), or when the configuration is not at hand", () => {
    expect(ticksNow({ name: "pull_request", action: "opened" }, WORKFLOW_ONLY)).toBe(false);
    expect(ticksNow({ name: "pull_request", action: "opened" }, WITH_COPILOT)).toBe(true);
    expect(ticksNow({ name: "pull_request", action: "opened" }, undefined)).toBe(true);
  });
});
