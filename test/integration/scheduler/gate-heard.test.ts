/**
 * The gate's verdict as the App learns it: from its own check run's webhook (the payload GitHub
 * signs with the webhook secret, its `app` set by GitHub), not by reading every head in review on
 * every tick of every replica (issue 24: the check-run reads were most of the App's requests).
 * Judged from the requests the fake recorded, with the real Octokit over HTTP.
 */
import { afterEach, describe, expect, it } from "vitest";
import { octokitTickGitHub } from "../../../src/adapters/github/tick/octokit-tick-github.js";
import type { GateCheckRun } from "../../../src/adapters/github/tick/gate-of-check-run.js";
import { renderGateCheckMarker } from "../../../src/core/journal/gate-check-marker.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { BOT, REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const WAIT_MS = 30_000;
/** The commit judged: the head of `main` (GitHub lists check runs only for a commit it has). */
let SHA = "";

/** A `bosun/gate` run as GitHub records it and as its webhook shows it (`app` is who posted it). */
function gateRun(fx: Fixture, opts: { slug?: string; verdict?: "pass" | "fail"; status?: "completed" | "in_progress"; id?: number; sha?: string } = {}): GateCheckRun {
  const sha = opts.sha ?? SHA;
  const verdict = opts.verdict ?? "pass";
  const status = opts.status ?? "completed";
  const id = opts.id ?? fx.fake.state.nextId++;
  const summary = status === "completed" ? `${renderGateCheckMarker({ v: 1, item: "1", brief: null, verdict, sha, ...(verdict === "fail" ? { failure: "refuse" as const, reason: "outside the brief" } : {}) })}\n${verdict}` : "";
  const slug = opts.slug ?? "bosun";
  fx.fake.repo(REPO).checkRuns.set(id, { id, name: "bosun/gate", headSha: sha, status, conclusion: status === "completed" ? (verdict === "pass" ? "success" : "failure") : null, startedAt: fx.clock.now(), completedAt: status === "completed" ? fx.clock.now() : null, externalId: "", detailsUrl: null, output: { title: verdict, summary, text: null, annotationsCount: 0 }, annotations: [], appId: slug === "bosun" ? 42 : 15368, appSlug: slug });
  return { id, head_sha: sha, status, app: { slug }, output: { title: verdict, summary } };
}

async function setup(gateHeardWaitMs?: number) {
  const fx = await schedulerFixture();
  f = fx;
  SHA = fx.fake.repo(REPO).refs.get("refs/heads/main") ?? "";
  // Who posted a run is the app GitHub records for it: Bosun's, and GitHub Actions' (any workflow's).
  fx.fake.addInstallation({ id: 501, appId: 42, appSlug: "bosun", repos: [REPO] });
  fx.fake.addInstallation({ id: 777, appId: 15368, appSlug: "github-actions", repos: [REPO] });
  expect(SHA).toMatch(/^[0-9a-f]{40}$/);
  const github = octokitTickGitHub(createTestOctokit(fx.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", now: () => fx.clock.now(), ...(gateHeardWaitMs === undefined ? {} : { gateHeardWaitMs }) });
  const mark = (): number => fx.fake.accounting.log.at(-1)?.seq ?? 0;
  const reads = (since: number): string[] => fx.fake.accounting.log.filter((e) => e.seq > since && (e.route ?? "").includes("check-runs")).map((e) => `${e.route} ${e.status}`);
  return { fx, github, mark, reads };
}

describe("the gate's verdict, heard rather than read", () => {
  it("the App's own completed run, heard, is the verdict: no read of the commit's check runs", async () => {
    const { fx, github, mark, reads } = await setup(WAIT_MS);
    const from = mark();
    // Met before its verdict: the App waits for the webhook instead of asking.
    expect(await github.gateVerdict(SHA)).toBeUndefined();
    github.heardGate(gateRun(fx, { verdict: "fail" }));
    expect(await github.gateVerdict(SHA)).toMatchObject({ verdict: "fail", sha: SHA, failure: "refuse", reason: "outside the brief" });
    expect(reads(from)).toEqual([]);
  });

  it("a webhook lost, or heard by another replica: after the wait the commit's runs are read once, and the verdict is there", async () => {
    const { fx, github, mark, reads } = await setup(WAIT_MS);
    const from = mark();
    expect(await github.gateVerdict(SHA)).toBeUndefined();
    gateRun(fx);
    fx.clock.advance(WAIT_MS - 1);
    expect(await github.gateVerdict(SHA)).toBeUndefined();
    expect(reads(from)).toEqual([]);
    fx.clock.advance(1);
    expect(await github.gateVerdict(SHA)).toMatchObject({ verdict: "pass", sha: SHA });
    expect(await github.gateVerdict(SHA)).toMatchObject({ verdict: "pass" });
    expect(reads(from)).toEqual(["GET /repos/{owner}/{repo}/commits/{ref}/check-runs 200"]);
  });

  it("a run of the gate's name posted by another app (any workflow can post as GitHub Actions) is neither believed nor a reason to read", async () => {
    const { fx, github, mark, reads } = await setup(WAIT_MS);
    const from = mark();
    github.heardGate(gateRun(fx, { slug: "github-actions" }));
    expect(await github.gateVerdict(SHA)).toBeUndefined();
    expect(reads(from)).toEqual([]);
    // Read at last (the wait over): the forgery is in the answer, and still not a verdict.
    fx.clock.advance(WAIT_MS);
    expect(await github.gateVerdict(SHA)).toBeUndefined();
    expect(reads(from)).toHaveLength(1);
  });

  it("deliveries out of order: an older run's end never replaces a newer run's verdict", async () => {
    const { fx, github } = await setup(WAIT_MS);
    const older = gateRun(fx, { verdict: "pass" });
    const newer = gateRun(fx, { verdict: "fail" });
    github.heardGate(newer);
    github.heardGate(older);
    expect(await github.gateVerdict(SHA)).toMatchObject({ verdict: "fail" });
  });

  it("a run's own `created` view delivered after its `completed` one changes nothing; an older run's end after a newer run started brings nothing back", async () => {
    const { fx, github, mark, reads } = await setup(WAIT_MS);
    const from = mark();
    const run = gateRun(fx, { verdict: "pass" });
    github.heardGate(run);
    github.heardGate({ ...run, status: "in_progress", output: { title: null, summary: null } });
    expect(await github.gateVerdict(SHA)).toMatchObject({ verdict: "pass" });
    const rerun = gateRun(fx, { status: "in_progress" });
    github.heardGate(rerun);
    github.heardGate(run);
    expect(await github.gateVerdict(SHA)).toBeUndefined();
    expect(reads(from)).toEqual([]);
  });

  it("a re-run started drops the verdict it replaces: none until the re-run's own end", async () => {
    const { fx, github, mark, reads } = await setup(WAIT_MS);
    github.heardGate(gateRun(fx, { verdict: "pass" }));
    expect(await github.gateVerdict(SHA)).toMatchObject({ verdict: "pass" });
    const from = mark();
    const rerun = gateRun(fx, { status: "in_progress" });
    github.heardGate(rerun);
    expect(await github.gateVerdict(SHA)).toBeUndefined();
    github.heardGate({ ...gateRun(fx, { id: rerun.id, verdict: "fail" }) });
    expect(await github.gateVerdict(SHA)).toMatchObject({ verdict: "fail" });
    expect(reads(from)).toEqual([]);
  });

  it("a process that hears no webhooks (the Action's schedule mode) reads a head's verdict when it first meets it", async () => {
    const { fx, github, mark, reads } = await setup();
    gateRun(fx, { verdict: "pass" });
    const from = mark();
    expect(await github.gateVerdict(SHA)).toMatchObject({ verdict: "pass" });
    expect(reads(from)).toHaveLength(1);
  });
});
