/**
 * A claim commit that anyone with write access signed with their own key, under their own verified
 * address, naming the App's bot as author and committer: GitHub shows it verified (for them), and
 * Bosun must not take it for its own record. Read over HTTP from the fake GitHub, as the tick does.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseClaimMessage, renderClaimMessage } from "../../../src/core/claims/claim-record.js";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

describe("a claim commit that names the bot but is signed by someone else", () => {
  it("is reported as forged, and the record below it is believed", async () => {
    const fx = await schedulerFixture();
    f = fx;
    const n = await fx.queue("a");
    await fx.replica("replica-a").tick();
    const ref = `refs/bosun/claims/${n}`;
    const repo = fx.fake.repo(REPO);
    const head = repo.refs.get(ref) ?? "";
    const held = parseClaimMessage(repo.commits.get(head)?.message ?? "", ref);
    expect(held?.state).toBe("held");
    if (held === undefined) throw new Error("no record");
    // Mallory ends the item as withdrawn, in a commit GitHub verified against her own key.
    const mallory = { name: "bosun[bot]", email: "mallory@example.com", date: new Date(fx.clock.now()).toISOString() };
    const sha = "f".repeat(40);
    repo.commits.set(sha, { sha, tree: repo.commits.get(head)?.tree ?? "", parents: [head], message: renderClaimMessage({ ...held, state: "withdrawn" }), author: mallory, committer: mallory, signedFor: "mallory" });
    repo.refs.set(ref, sha);
    const seen = await fx.replica("replica-b").ticker.store(fx.config).current(ref);
    expect(seen.forged).toBeDefined();
    expect(seen.record?.state).toBe("held");
  });
});
