/**
 * The run's cost in the Action's work mode: the wall clock the agent job measured and the tokens and
 * usd the agent reported in its structured result, carried to the land job in the result file,
 * recorded once in the claim record's landing (the fleet's cost figures read it from there) and
 * journalled on LAND.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseClaimMessage } from "../../../src/core/claims/claim-record.js";
import { REPO, schedulerFixture } from "../scheduler/scheduler-fixture.js";
import { runWorkPhases } from "../scheduler/work-phases.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const CONFIG = "pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n";

describe("cost of a run in the Action's work mode", () => {
  it("is read back from the agent's structured output and recorded in the claim record's landing, on LAND and as the cost output", async () => {
    f = await schedulerFixture(CONFIG);
    f.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
    const n = await f.queue("job");
    await f.replica("app").tick();
    const comment = [...f.fake.repo(REPO).comments.values()].find((c) => c.issueNumber === n);
    const hash = /"hash": "(sha256:[0-9a-f]+)"/.exec(comment?.body ?? "")?.[1] ?? "";
    const run = { sha: f.fake.repo(REPO).refs.get("refs/heads/main") ?? "", runId: f.runsOf(n)[0]?.id ?? 0 };
    const agent = `echo '{"kind":"done","cost":{"tokens":4321,"usd":0.12}}' > "$BOSUN_RESULT"`;
    const phases = await runWorkPhases(f.fake.url, { item: String(n), epoch: "1", "brief-hash": hash, "agent-command": agent }, {}, undefined, run);
    expect([...phases.check.failures, ...(phases.agent?.failures ?? []), ...(phases.land?.failures ?? [])]).toEqual([]);
    const io = phases.land;
    if (io === undefined) throw new Error("the land phase did not run");
    // Judged from the record Bosun wrote on the fake (the commit the claim ref points at).
    const ref = `refs/bosun/claims/${n}`;
    const record = parseClaimMessage(f.fake.repo(REPO).commits.get(f.fake.repo(REPO).refs.get(ref) ?? "")?.message ?? "", ref);
    expect(record?.landing?.cost).toMatchObject({ tokens: 4321, usd: 0.12 });
    expect(record?.landing?.cost?.wall_clock_s).toBeGreaterThan(0);
    // The journal of an Action run is its step log: one JSON event per line after the trace.
    const land = io.logs.map((l) => /^LAND .*? {2}(\{.*\})$/.exec(l)?.[1]).find((x) => x !== undefined);
    const cost = (JSON.parse(land ?? "{}") as { cost?: { tokens?: number; usd?: number; wall_clock_s?: number } }).cost;
    expect(cost).toMatchObject({ tokens: 4321, usd: 0.12 });
    expect(cost?.wall_clock_s).toBe(record?.landing?.cost?.wall_clock_s);
    expect(JSON.parse(io.outputs["cost"] ?? "null")).toMatchObject({ tokens: 4321, usd: 0.12 });
  });
});
