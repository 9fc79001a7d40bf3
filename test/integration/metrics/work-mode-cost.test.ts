import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import work from "../../../src/action/modes/work.js";
import { reconcileTick } from "../../../src/app/scheduler/reconcile-tick.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { REPO, schedulerFixture } from "../scheduler/scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const CONFIG = "pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n";

describe("cost on LAND in the Action's work mode", () => {
  it("journals the wall clock it measured and the tokens and usd the agent reported", async () => {
    f = await schedulerFixture(CONFIG);
    f.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
    const n = await f.queue("job");
    await reconcileTick(f.replica("app"));
    const comment = [...f.fake.repo(REPO).comments.values()].find((c) => c.issueNumber === n);
    const hash = /"hash": "(sha256:[0-9a-f]+)"/.exec(comment?.body ?? "")?.[1] ?? "";
    const agent = `echo '{"kind":"done","cost":{"tokens":4321,"usd":0.12}}' > "$BOSUN_RESULT"`;
    const io = memoryActionIo({
      inputs: { "github-token": "t-bot", "bot-login": "bosun[bot]", item: String(n), epoch: "1", "brief-hash": hash, "agent-command": agent },
      eventName: "workflow_dispatch",
      payload: {},
      env: { GITHUB_API_URL: f.fake.url, RUNNER_TEMP: await mkdtemp(join(tmpdir(), "bosun-work-")), GITHUB_WORKSPACE: tmpdir() },
    });
    await work.run(io.io);
    expect(io.failures).toEqual([]);
    expect(f.labelsOf(n)).toContain("bosun:done");
    // The journal of an Action run is its step log: one JSON event per line after the trace.
    const land = io.logs.map((l) => /^LAND .*? {2}(\{.*\})$/.exec(l)?.[1]).find((x) => x !== undefined);
    const cost = (JSON.parse(land ?? "{}") as { cost?: { tokens?: number; usd?: number; wall_clock_s?: number } }).cost;
    expect(cost).toMatchObject({ tokens: 4321, usd: 0.12 });
    expect(cost?.wall_clock_s).toBeGreaterThan(0);
    expect(JSON.parse(io.outputs["cost"] ?? "null")).toMatchObject({ tokens: 4321, usd: 0.12 });
  });
});
