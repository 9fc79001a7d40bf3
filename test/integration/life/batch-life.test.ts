/**
 * Two items approved together on the shipped batched work workflow, played job by job with the real
 * App: ONE work run carries both (a matrix leg each, each leg a call of the item workflow's check,
 * agent and land), and each leg's work reaches its own item only — its own artifact, its own branch
 * and pull request, its own acceptance run and `bosun/gate` verdict. Judged from what the fake
 * recorded. (A leg reading the other leg's artifact, or both uploading one name — GitHub refuses a
 * second upload of a name in a run — would show here as a missing or mixed pull request.)
 */
import { afterEach, describe, expect, test } from "vitest";
import { runItems } from "../../support/run-items.js";
import { judge } from "./judge-life.js";
import { BOT, briefForm, startLife, type Life } from "./life-world.js";

let life: Life | undefined;
afterEach(async () => {
  await life?.close();
  life = undefined;
});

/** The agent stand-in: the in-brief change, and a file named for the item it was handed. */
const agent = ["#!/usr/bin/env bash", "set -euo pipefail", "mkdir -p src/http", "printf 'export const honorRetryAfter = true;\\n' > src/http/retry.ts", 'printf "export const item = %s;\\n" "$BOSUN_ITEM" > "src/http/item-$BOSUN_ITEM.ts"', 'printf \'{"kind":"done"}\' > "$BOSUN_RESULT"', ""].join("\n");

describe("two items of one batch, their whole work stage", () => {
  test("one work run with a leg per item; each leg opens its own item's pull request with its own change, and each passes its own gate", async () => {
    life = await startLife({ agent, poolSize: 2, verbose: process.env["LIFE_VERBOSE"] === "1" });
    const { fake, people } = life;
    const j = judge(fake);
    const a = await people.triager.openIssue("[brief] Honor Retry-After", briefForm());
    const b = await people.triager.openIssue("[brief] Honor Retry-After again", briefForm({ Goal: "Honor Retry-After on the second client" }));
    // Both approved before the App hears either: one tick grants both, one dispatch carries them.
    await people.maintainer.label(a, "bosun:ready");
    await people.maintainer.label(b, "bosun:ready");
    await fake.webhooks.flush();
    await life.settle();

    const runs = j.runsOf(".github/workflows/bosun-work.yml");
    expect(runs.map((r) => [runItems(r).map((i) => Number(i.item)).sort((x, y) => x - y), r.conclusion]), `the played runs:\n${life.explain()}`).toEqual([[[a, b].sort((x, y) => x - y), "success"]]);
    for (const n of [a, b]) {
      const pull = j.pull(n);
      expect(pull, `the land job of #${n}'s leg opened its pull request`).toBeDefined();
      if (pull === undefined) continue;
      expect(j.issue(pull.number)?.user).toBe(BOT);
      const files = pull.files.map((f) => f.filename).sort();
      expect(files, `#${n}'s pull request holds its own leg's change only`).toEqual([`src/http/item-${n}.ts`, "src/http/retry.ts"]);
      const gate = j.appCheck(pull.headSha, "bosun/gate");
      expect(gate?.conclusion, `bosun/gate on #${n}'s pull request said: ${gate?.output.title ?? ""}\n${gate?.output.summary ?? ""}`).toBe("success");
    }
  }, 120_000);
});
