/**
 * Child process for hostile-intake.fuzz.test.ts: ONE long-lived process runs the tick's intake on
 * every hostile body several times in a row — the body parsed as the gather stage parses it, the
 * approval planned by `planTick`, the problems comment rendered as the apply stage posts it, then
 * the same approval delivered again over the record it wrote — and finally on a normal body. It
 * prints one JSON line per body. A stack overflow or a V8 abort would end it early with no last line.
 */
import { briefHash } from "../../src/core/brief/parse-brief.js";
import { parseIssueBody } from "../../src/core/brief/parse-issue-body.js";
import type { ClaimRecord } from "../../src/core/claims/claim-record.js";
import { bosunConfigSchema } from "../../src/core/config/bosun-config.js";
import { renderProblemsComment } from "../../src/core/intake/intake-comments.js";
import { planTick } from "../../src/core/scheduler/plan-tick.js";
import type { BodyBrief, ItemFacts } from "../../src/core/scheduler/tick-facts.js";
import type { TickPlan } from "../../src/core/scheduler/tick-plan.js";
import { hostileBodies, NORMAL_BODY } from "./hostile-yaml.js";

const config = bosunConfigSchema.parse({});
const rounds = Number(process.argv[2] ?? "3");
const NOW = Date.UTC(2026, 11, 2, 12);
const APPROVAL = { id: 77, by: "mona", at: NOW - 60_000 };

function plan(brief: BodyBrief, record: ClaimRecord | undefined): TickPlan {
  const item: ItemFacts = {
    n: 7,
    ref: "refs/bosun/claims/7",
    sha: record === undefined ? undefined : "sha7",
    floor: 0,
    ...(record === undefined ? {} : { record }),
    issue: { title: "t", labels: ["bosun:ready"], createdAt: NOW - 3_600_000, open: true, completed: false, author: "tia", brief },
    approval: { kind: "approved", approval: APPROVAL, bodyEditedAt: null },
  };
  return planTick({ now: NOW, holder: "fuzz", config, items: [item] });
}

/** What the tick does with one body: the record it writes, the comments it posts, and what a redelivery adds. */
function intake(body: string): { outcome: string; comments: string[]; again: number } {
  const parsed = parseIssueBody(body, { name: "issue #7", defaultId: "7" });
  const brief: BodyBrief = parsed.ok ? { ok: true, brief: parsed.brief, hash: briefHash(parsed.brief) } : { ok: false, problems: parsed.problems };
  const first = plan(brief, undefined);
  const comments = first.effects.flatMap((e) => (e.kind === "problems" ? [renderProblemsComment(e.problems, config.labels.ready)] : e.kind === "snapshot" ? ["snapshot"] : []));
  const record = first.writes[0]?.next;
  const again = plan(brief, record).effects.filter((e) => e.kind !== "journal").length + plan(brief, record).writes.length;
  return { outcome: record?.state ?? "nothing", comments, again };
}

for (let round = 0; round < rounds; round++) {
  for (const { name, body } of hostileBodies()) {
    const started = performance.now();
    const { outcome, comments, again } = intake(body);
    process.stdout.write(`${JSON.stringify({ name, round, outcome, comments, again, ms: Math.round(performance.now() - started) })}\n`);
  }
}
const { outcome, comments, again } = intake(NORMAL_BODY);
process.stdout.write(`${JSON.stringify({ name: "normal", outcome, comments, again })}\n`);
