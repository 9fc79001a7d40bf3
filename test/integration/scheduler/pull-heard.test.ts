/**
 * The pull request listing as the App keeps it: mended from each `pull_request` webhook's pull
 * request (a payload GitHub signs), not listed again after every opening, push and merge on every
 * replica that hears one (issue 24). Judged from the requests the fake recorded.
 */
import { afterEach, describe, expect, it } from "vitest";
import { octokitTickGitHub } from "../../../src/adapters/github/tick/octokit-tick-github.js";
import type { HeardPull } from "../../../src/adapters/github/tick/tick-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { BOT, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const iso = (ms: number): string => new Date(ms).toISOString();
const pull = (over: Partial<HeardPull> & { number: number; updated_at: string }): HeardPull => ({ state: "open", body: "", merged_at: null, merge_commit_sha: null, head: { ref: `bosun/${over.number}-work`, sha: "b".repeat(40), repo: { full_name: "acme/app" } }, user: { login: "bosun[bot]" }, ...over });

async function setup() {
  const fx = await schedulerFixture();
  f = fx;
  const github = octokitTickGitHub(createTestOctokit(fx.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", now: () => fx.clock.now() });
  const mark = (): number => fx.fake.accounting.log.at(-1)?.seq ?? 0;
  const listings = (since: number): number => fx.fake.accounting.log.filter((e) => e.seq > since && e.route === "GET /repos/{owner}/{repo}/pulls").length;
  return { fx, github, mark, listings };
}

describe("the pull request listing, mended from webhooks", () => {
  it("an opening, a push and a merge heard are in the listing without a request", async () => {
    const { fx, github, mark, listings } = await setup();
    expect((await github.linkedPulls()).size).toBe(0);
    const from = mark();
    const t = fx.clock.now();
    github.heardPull(pull({ number: 7, body: "Closes #3", updated_at: iso(t + 1) }));
    expect((await github.linkedPulls()).get(3)).toEqual([expect.objectContaining({ number: 7, state: "open", head: "b".repeat(40) })]);
    github.heardPull(pull({ number: 7, body: "Closes #3", updated_at: iso(t + 2), head: { ref: "bosun/3-work", sha: "c".repeat(40), repo: { full_name: "acme/app" } } }));
    expect((await github.linkedPulls()).get(3)).toEqual([expect.objectContaining({ number: 7, head: "c".repeat(40), bosunBranch: true })]);
    github.heardPull(pull({ number: 7, body: "Closes #3", state: "closed", merged_at: iso(t + 3), merge_commit_sha: "d".repeat(40), updated_at: iso(t + 3), head: { ref: "bosun/3-work", sha: "c".repeat(40), repo: { full_name: "acme/app" } } }));
    expect((await github.linkedPulls()).get(3)).toEqual([expect.objectContaining({ number: 7, state: "merged", mergeSha: "d".repeat(40) })]);
    expect(listings(from)).toBe(0);
  });

  it("an edit that drops `Closes #3` unlinks the pull request from #3 and links it where it now points", async () => {
    const { fx, github } = await setup();
    await github.linkedPulls();
    const t = fx.clock.now();
    github.heardPull(pull({ number: 8, body: "Closes #3", updated_at: iso(t + 1), head: { ref: "feature", sha: "e".repeat(40), repo: { full_name: "acme/app" } } }));
    github.heardPull(pull({ number: 8, body: "Fixes #4", updated_at: iso(t + 2), head: { ref: "feature", sha: "e".repeat(40), repo: { full_name: "acme/app" } } }));
    const links = await github.linkedPulls();
    expect(links.get(3)).toBeUndefined();
    expect(links.get(4)).toEqual([expect.objectContaining({ number: 8 })]);
  });

  it("deliveries out of order: an older view of a pull request never replaces a newer one", async () => {
    const { fx, github } = await setup();
    await github.linkedPulls();
    const t = fx.clock.now();
    github.heardPull(pull({ number: 9, state: "closed", merged_at: iso(t + 2), merge_commit_sha: "d".repeat(40), updated_at: iso(t + 2) }));
    github.heardPull(pull({ number: 9, updated_at: iso(t + 1) }));
    expect((await github.linkedPulls()).get(9)).toEqual([expect.objectContaining({ number: 9, state: "merged" })]);
  });

  it("two views in one second (GitHub's timestamps are to the second) that disagree are not guessed between: the listing is read again", async () => {
    const { fx, github, mark, listings } = await setup();
    await github.linkedPulls();
    const t = fx.clock.now();
    github.heardPull(pull({ number: 9, state: "closed", updated_at: iso(t) }));
    const from = mark();
    github.heardPull(pull({ number: 9, updated_at: iso(t) }));
    // The fake has no pull request #9: what GitHub lists is the answer.
    expect((await github.linkedPulls()).get(9)).toBeUndefined();
    expect(listings(from)).toBe(1);
  });

  it("with no listing fresh enough to mend, a webhook changes nothing: the next read lists", async () => {
    const { fx, github, mark, listings } = await setup();
    const from = mark();
    github.heardPull(pull({ number: 7, body: "Closes #3", updated_at: iso(fx.clock.now()) }));
    // The fake has no such pull request: what GitHub lists is the truth, not the webhook.
    expect((await github.linkedPulls()).get(3)).toBeUndefined();
    expect(listings(from)).toBe(1);
  });
});
