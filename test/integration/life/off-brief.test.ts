/**
 * The whole life of an item whose agent leaves the brief — a path outside the allowed paths, or more
 * changed lines than the size cap — on the shipped workflows and the real App: the gate fails naming
 * the path or the cap, and the item ends refused (`bosun:needs-human`) with the gate's words on the
 * issue, the issue open, never `bosun:done`. Judged from what the fake recorded.
 */
import { afterEach, describe, expect, test } from "vitest";
import { judge } from "./judge-life.js";
import { agentScript, BOT, briefForm, startLife, type Life } from "./life-world.js";

let life: Life | undefined;
afterEach(async () => {
  await life?.close();
  life = undefined;
});

const CASES = [
  { name: "a path outside the brief", agent: agentScript({ "src/billing/charge.ts": "export const charge = 0;\n" }), form: briefForm(), words: /src\/billing\/charge\.ts/ },
  { name: "more changed lines than the size cap", agent: agentScript({ "src/http/table.ts": Array.from({ length: 12 }, (_, i) => `export const row${i} = ${i};`).join("\n") + "\n" }), form: briefForm({ "Size cap": "5" }), words: /size cap|size_cap|\b5\b.*lines|lines.*\b5\b/i },
];

describe("the whole life of an off-brief item", () => {
  test.each(CASES)("$name: bosun/gate fails naming it, the item is refused to a human with the gate's words, never done", async ({ agent, form, words }) => {
    life = await startLife({ agent });
    const { fake, people, meter } = life;
    const j = judge(fake);
    try {
      meter.stage("file and approve");
      const n = await people.triager.openIssue("[brief] Honor Retry-After", form);
      await people.maintainer.label(n, "bosun:ready");
      meter.stage("claim, dispatch, work, PR, acceptance, gate");
      await life.settle();
      const pull = j.pull(n);
      expect(pull, "the land job opened the item's pull request").toBeDefined();
      if (pull === undefined) return;
      const gate = j.appCheck(pull.headSha, "bosun/gate");
      const said = `${gate?.output.title ?? ""}\n${gate?.output.summary ?? ""}`;
      expect(gate?.conclusion).toBe("failure");
      expect.soft(said, "bosun/gate names what is off the brief").toMatch(words);
      meter.stage("after the gate");
      await life.settle();
      expect(j.issue(n)?.state).toBe("open");
      const history = (j.issue(n)?.events ?? []).map((e) => `${e.event} ${e.label} by ${e.actor}`).join(", ");
      expect.soft(j.labels(n), `refused: to a human (label history: ${history}; played runs:\n${life.explain()})`).toContain("bosun:needs-human");
      expect.soft(j.issue(n)?.events.filter((e) => e.label === "bosun:done").map((e) => `${e.event} by ${e.actor}`), "never marked done").toEqual([]);
      // The gate's words reach the issue in Bosun's status comment, not only the pull request's checks.
      expect.soft(j.notes(n).map((c) => c.body).join("\n---\n"), `the gate's words on the issue (label history: ${history})`).toMatch(words);
      expect(fake.repo("acme/app").pulls.get(pull.number)?.merged).toBe(false);
      expect(life.posted.filter((c) => c.issue === n && c.user === BOT && c.body.includes("bosun:snapshot"))).toHaveLength(1);
    } finally {
      process.stdout.write(`\nwhole life, off brief:\n${meter.table()}\n`);
    }
  }, 120_000);
});
