/** A re-approval of a worked item freezes a new snapshot: the scheduler re-runs a settled item only for a newer one. */
import { describe, expect, it } from "vitest";
import { parseIssueBody } from "../../../src/core/brief/parse-issue-body.js";
import { renderSnapshotComment } from "../../../src/core/brief/snapshot.js";
import { DEFAULT_LABELS } from "../../../src/core/config/labels.js";
import { decideIntake } from "../../../src/core/intake/decide-intake.js";
import type { IntakeContext, IssueView } from "../../../src/core/intake/intake-types.js";
import { renderLanding } from "../../../src/app/scheduler/render-landing.js";
import { formBody } from "../../integration/app/app-harness.js";

const ctx: IntakeContext = { botLogin: "bosun[bot]", labels: DEFAULT_LABELS };
const BODY = formBody();
const parsed = parseIssueBody(BODY, { name: "issue #7", defaultId: "7" });
if (!parsed.ok) throw new Error("fixture brief invalid");
const frozen = renderSnapshotComment(parsed.brief);
const issue = (snapshotBody: string): IssueView => ({ number: 7, title: "t", state: "open", body: BODY, labels: ["bosun:ready"], comments: [{ id: 100, author: "bosun[bot]", authorIsBot: true, body: snapshotBody }] });
const approve = (state: IssueView) => decideIntake({ kind: "labeled", label: "bosun:ready", sender: "mona", senderCanWrite: true, approvedBody: BODY }, state, ctx);

describe("re-approval after a landing", () => {
  it("an unchanged brief whose snapshot already carries a landing gets a new snapshot, then is queued", () => {
    const landed = renderLanding(frozen, { epoch: 1, stop: { kind: "failed", failure: "unclassified", reason: "boom" }, disposition: "human", at: 0, by: "replica-a" });
    expect(approve(issue(landed)).actions.map((a) => a.kind)).toEqual(["comment", "add-labels"]);
  });

  it("an unchanged brief whose snapshot was never worked only gets its label back", () => {
    expect(approve(issue(frozen)).actions.map((a) => a.kind)).toEqual(["add-labels"]);
  });
});
