/** The intake's decisions as a table: event + current issue state -> actions. */
import { describe, expect, test } from "vitest";
import { briefHash } from "../../../src/core/brief/parse-brief.js";
import { parseIssueBody } from "../../../src/core/brief/parse-issue-body.js";
import { renderSnapshotComment } from "../../../src/core/brief/snapshot.js";
import { DEFAULT_LABELS } from "../../../src/core/config/labels.js";
import { decideIntake, intakeReads } from "../../../src/core/intake/decide-intake.js";
import { HOLD_MARKER, INVALID_MARKER } from "../../../src/core/intake/intake-comments.js";
import type { IntakeComment, IntakeContext, IntakeEvent, IssueView } from "../../../src/core/intake/intake-types.js";
import { formBody } from "../../integration/app/app-harness.js";

const ctx: IntakeContext = { botLogin: "bosun[bot]", labels: DEFAULT_LABELS };
const BODY = formBody();
const EDITED = formBody({ "Size cap": "999" });
const BROKEN = formBody({ "Size cap": "lots" });
const brief = (body: string) => {
  const r = parseIssueBody(body, { name: "issue #7", defaultId: "7" });
  if (!r.ok) throw new Error("fixture brief invalid");
  return r.brief;
};
const snapshot = (body: string, author = "bosun[bot]", isBot = true): IntakeComment => ({ id: 100, author, authorIsBot: isBot, body: renderSnapshotComment(brief(body)) });
const issue = (over: Partial<IssueView> = {}): IssueView => ({ number: 7, title: "t", state: "open", body: BODY, labels: ["bosun:ready"], comments: [], ...over });
const approval = (over: Partial<Extract<IntakeEvent, { kind: "labeled" }>> = {}): IntakeEvent => ({ kind: "labeled", label: "bosun:ready", sender: "mona", senderCanWrite: true, approvedBody: BODY, ...over });

/** Actions as short strings: `comment <marker>`, `+label`, `-label`, `update <id>`, `noop`. */
function summary(event: IntakeEvent, state: IssueView): string[] {
  return decideIntake(event, state, ctx).actions.map((a) => {
    switch (a.kind) {
      case "comment":
        return `comment ${a.body.split("\n")[0] ?? ""}`;
      case "update-comment":
        return `update ${a.commentId}`;
      case "add-labels":
        return `+${a.labels.join(",")}`;
      case "remove-label":
        return `-${a.label}`;
      case "noop":
        return "noop";
    }
  });
}

describe("decideIntake", () => {
  const cases: Array<{ name: string; event: IntakeEvent; state: IssueView; actions: string[]; outcome: string }> = [
    { name: "a writer's approval of a valid brief posts a snapshot, then queues", event: approval(), state: issue(), actions: ["comment <!-- bosun:snapshot -->", "+bosun:queued"], outcome: "queued" },
    { name: "an approval by someone without write access does nothing", event: approval({ senderCanWrite: false }), state: issue(), actions: ["noop"], outcome: "ignored" },
    { name: "another label is not an approval", event: approval({ label: "P1" }), state: issue(), actions: ["noop"], outcome: "ignored" },
    { name: "an approval whose label the read does not show is stale: read again, conclude nothing", event: approval(), state: issue({ labels: [] }), actions: ["noop"], outcome: "stale" },
    { name: "an approval of a closed issue does nothing", event: approval(), state: issue({ state: "closed" }), actions: ["noop"], outcome: "ignored" },
    { name: "a redelivered approval with the snapshot and label in place does nothing", event: approval(), state: issue({ labels: ["bosun:ready", "bosun:queued"], comments: [snapshot(BODY)] }), actions: ["noop"], outcome: "queued" },
    { name: "a snapshot without its label (crash in between) only adds the label", event: approval(), state: issue({ comments: [snapshot(BODY)] }), actions: ["+bosun:queued"], outcome: "queued" },
    { name: "a snapshot by a human does not count", event: approval(), state: issue({ comments: [snapshot(BODY, "mallory", false)] }), actions: ["comment <!-- bosun:snapshot -->", "+bosun:queued"], outcome: "queued" },
    { name: "a human named like the bot is not the bot", event: approval(), state: issue({ comments: [snapshot(BODY, "bosun[bot]", false)] }), actions: ["comment <!-- bosun:snapshot -->", "+bosun:queued"], outcome: "queued" },
    { name: "an invalid brief gets one problems comment and bosun:invalid-brief", event: approval({ approvedBody: BROKEN }), state: issue({ body: BROKEN }), actions: [`comment ${INVALID_MARKER}`, "+bosun:invalid-brief"], outcome: "invalid" },
    { name: "re-approving an edited, queued issue freezes the new text and lifts the hold", event: approval({ approvedBody: EDITED }), state: issue({ body: EDITED, labels: ["bosun:ready", "bosun:queued", "bosun:hold"], comments: [snapshot(BODY)] }), actions: ["comment <!-- bosun:snapshot -->", "-bosun:hold"], outcome: "queued" },
    { name: "re-approving a now-invalid queued issue takes it out of the queue", event: approval({ approvedBody: BROKEN }), state: issue({ body: BROKEN, labels: ["bosun:ready", "bosun:queued", "bosun:hold"], comments: [snapshot(BODY)] }), actions: [`comment ${INVALID_MARKER}`, "+bosun:invalid-brief", "-bosun:queued", "-bosun:hold"], outcome: "invalid" },
    { name: "an approval of text that changed since the label holds instead of freezing", event: approval({ approvedBody: BODY }), state: issue({ body: EDITED }), actions: [`comment ${HOLD_MARKER}`, "+bosun:hold"], outcome: "held" },
    { name: "a fixed brief re-approved drops bosun:invalid-brief", event: approval(), state: issue({ labels: ["bosun:ready", "bosun:invalid-brief"] }), actions: ["comment <!-- bosun:snapshot -->", "+bosun:queued", "-bosun:invalid-brief"], outcome: "queued" },
    { name: "an edit of a queued issue's brief holds it with a notice", event: { kind: "edited", sender: "tia" }, state: issue({ body: EDITED, labels: ["bosun:ready", "bosun:queued"], comments: [snapshot(BODY)] }), actions: [`comment ${HOLD_MARKER}`, "+bosun:hold"], outcome: "held" },
    { name: "an edit that leaves the brief as frozen changes nothing", event: { kind: "edited", sender: "tia" }, state: issue({ body: `${BODY}\n\n`, labels: ["bosun:ready", "bosun:queued"], comments: [snapshot(BODY)] }), actions: ["noop"], outcome: "unchanged" },
    { name: "an edit of an issue that is not queued changes nothing", event: { kind: "edited", sender: "tia" }, state: issue({ body: EDITED, labels: ["bosun:ready", "bosun:invalid-brief"] }), actions: ["noop"], outcome: "ignored" },
    { name: "the same edit redelivered while held writes nothing", event: { kind: "edited", sender: "tia" }, state: issue({ body: EDITED, labels: ["bosun:queued", "bosun:hold"], comments: [snapshot(BODY)] }), actions: ["noop"], outcome: "unchanged" },
    { name: "withdrawing bosun:ready removes queued and hold", event: { kind: "unlabeled", label: "bosun:ready", sender: "mona" }, state: issue({ labels: ["bosun:queued", "bosun:hold"] }), actions: ["-bosun:queued", "-bosun:hold"], outcome: "left" },
    { name: "a withdrawal that was undone since changes nothing", event: { kind: "unlabeled", label: "bosun:ready", sender: "mona" }, state: issue({ labels: ["bosun:ready", "bosun:queued"] }), actions: ["noop"], outcome: "unchanged" },
    { name: "closing a queued issue removes bosun:queued", event: { kind: "closed", sender: "mona" }, state: issue({ state: "closed", labels: ["bosun:ready", "bosun:queued"] }), actions: ["-bosun:queued"], outcome: "left" },
    { name: "a close delivered after a reopen changes nothing", event: { kind: "closed", sender: "mona" }, state: issue({ labels: ["bosun:ready", "bosun:queued"] }), actions: ["noop"], outcome: "unchanged" },
    { name: "the bot's own events are ignored", event: { kind: "edited", sender: "bosun[bot]" }, state: issue({ body: EDITED, labels: ["bosun:queued"], comments: [snapshot(BODY)] }), actions: ["noop"], outcome: "ignored" },
  ];

  test.each(cases)("$name", ({ event, state, actions, outcome }) => {
    expect(summary(event, state)).toEqual(actions);
    expect(decideIntake(event, state, ctx).outcome).toBe(outcome);
  });

  test("a second edit while held updates the one notice", () => {
    const held = issue({ body: EDITED, labels: ["bosun:queued", "bosun:hold"], comments: [snapshot(BODY)] });
    const first = decideIntake({ kind: "edited", sender: "tia" }, { ...held, labels: ["bosun:queued"] }, ctx).actions[0];
    if (first?.kind !== "comment") throw new Error("expected a notice");
    const again = { ...held, body: formBody({ "Size cap": "5" }), comments: [...held.comments, { id: 101, author: "bosun[bot]", authorIsBot: true, body: first.body }] };
    expect(summary({ kind: "edited", sender: "tia" }, again)).toEqual(["update 101"]);
  });

  test("the same problems are not commented twice", () => {
    const state = issue({ body: BROKEN });
    const first = decideIntake(approval({ approvedBody: BROKEN }), state, ctx).actions[0];
    if (first?.kind !== "comment") throw new Error("expected a comment");
    const after = { ...state, labels: ["bosun:ready", "bosun:invalid-brief"], comments: [{ id: 5, author: "bosun[bot]", authorIsBot: true, body: first.body }] };
    expect(summary(approval({ approvedBody: BROKEN }), after)).toEqual(["noop"]);
  });

  test("the snapshot holds the brief the hash names", () => {
    const action = decideIntake(approval(), issue(), ctx).actions[0];
    expect(action?.kind === "comment" && action.body).toContain(briefHash(brief(BODY)));
  });
});

describe("intakeReads", () => {
  test.each([
    { event: { kind: "labeled", label: "bosun:ready", sender: "mona" }, want: { relevant: true, permission: true, comments: true } },
    { event: { kind: "labeled", label: "P1", sender: "mona" }, want: { relevant: false, permission: false, comments: false } },
    { event: { kind: "labeled", label: "bosun:queued", sender: "bosun[bot]" }, want: { relevant: false, permission: false, comments: false } },
    { event: { kind: "unlabeled", label: "bosun:ready", sender: "mona" }, want: { relevant: true, permission: false, comments: false } },
    { event: { kind: "edited", sender: "tia" }, want: { relevant: true, permission: false, comments: true } },
    { event: { kind: "closed", sender: "tia" }, want: { relevant: true, permission: false, comments: false } },
  ] as const)("$event.kind $event.label by $event.sender", ({ event, want }) => {
    expect(intakeReads(event, ctx)).toMatchObject(want);
  });
});
