/**
 * Child process for hostile-intake.fuzz.test.ts: ONE long-lived process runs the App's intake
 * decision on every hostile body several times in a row, then on a normal body, and prints one
 * JSON line per decision. A stack overflow or a V8 abort would end it early with no last line.
 */
import { DEFAULT_LABELS } from "../../src/core/config/labels.js";
import { decideIntake } from "../../src/core/intake/decide-intake.js";
import type { IntakeContext, IssueView } from "../../src/core/intake/intake-types.js";
import { hostileBodies, NORMAL_BODY } from "./hostile-yaml.js";

const ctx: IntakeContext = { botLogin: "bosun[bot]", labels: DEFAULT_LABELS };
const rounds = Number(process.argv[2] ?? "3");

function decide(body: string): { outcome: string; comment: string } {
  const issue: IssueView = { number: 7, title: "t", state: "open", body, labels: ["bosun:ready"], comments: [] };
  const decision = decideIntake({ kind: "labeled", label: "bosun:ready", sender: "mona", senderCanWrite: true, approvedBody: body }, issue, ctx);
  const comment = decision.actions.find((a) => a.kind === "comment");
  return { outcome: decision.outcome, comment: comment?.kind === "comment" ? comment.body : "" };
}

for (let round = 0; round < rounds; round++) {
  for (const { name, body } of hostileBodies()) {
    const started = performance.now();
    const { outcome, comment } = decide(body);
    process.stdout.write(`${JSON.stringify({ name, round, outcome, comment, ms: Math.round(performance.now() - started) })}\n`);
  }
}
const { outcome } = decide(NORMAL_BODY);
process.stdout.write(`${JSON.stringify({ name: "normal", outcome })}\n`);
