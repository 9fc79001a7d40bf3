import { afterAll, describe, expect, it } from "vitest";
import { createFakeGitHub } from "../fake-github/create-fake-github.js";
import type { FakeGitHub } from "../fake-github/create-fake-github.js";
import { createTestOctokit } from "../fake-github/test-octokit.js";
import { octokitClaimRefs } from "../../src/adapters/github/claim-refs-api.js";
import { GitHubClaimStore } from "../../src/adapters/github/github-claim-store.js";
import { parseClaimMessage } from "../../src/core/claims/claim-record.js";
import { claimStoreContract } from "./claim-store.contract.js";

const fakes: FakeGitHub[] = [];
let repos = 0;

async function freshStore(): Promise<{ store: GitHubClaimStore; fake: FakeGitHub; name: string }> {
  const fake = await createFakeGitHub({ seed: 7 });
  fakes.push(fake);
  const name = `acme/claims-${++repos}`;
  fake.addRepo({ fullName: name });
  fake.addToken("t-bot", "bosun[bot]", { permissions: { [name]: "write" } });
  const [owner, repo] = name.split("/") as [string, string];
  return { store: new GitHubClaimStore({ refs: octokitClaimRefs(createTestOctokit(fake.url, "t-bot"), owner, repo) }), fake, name };
}

afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

claimStoreContract("GitHub refs (fake GitHub over HTTP)", async () => (await freshStore()).store);

describe("GitHub claim store on GitHub's primitives", () => {
  const T0 = Date.UTC(2026, 10, 30, 12);

  it("keeps a chain of claim commits on refs/bosun/claims/<key>, each naming holder, epoch and lease", async () => {
    const { store, fake, name } = await freshStore();
    const a = await store.claim("task:x", "replica-1", 60_000, T0);
    if (!a.granted) throw new Error("expected a grant");
    await store.release(a.token, { kind: "settle", outcome: { ok: true, disposition: "ok", summary: "done" } }, T0 + 5);
    const repo = fake.repo(name);
    const ref = "refs/bosun/claims/task/x";
    const head = repo.refs.get(ref);
    expect(head).toBeDefined();
    const settled = parseClaimMessage(repo.commits.get(head as string)?.message ?? "", ref);
    expect(settled).toMatchObject({ key: "task:x", holder: "replica-1", epoch: 1, state: "settled", outcome: { ok: true } });
    const parent = repo.commits.get(head as string)?.parents[0] as string;
    expect(parseClaimMessage(repo.commits.get(parent)?.message ?? "", ref)).toMatchObject({ state: "held", leaseUntil: T0 + 60_000 });
  });

  it("a batch that applied and answered 502 still grants; one that did not apply is not taken as a grant", async () => {
    const { store, fake } = await freshStore();
    fake.faults.add({ kind: "error", status: 502, route: "POST /graphql", applied: true, times: 1 });
    expect((await store.claim("task:a", "r1", 60_000, T0)).granted).toBe(true);
    fake.faults.add({ kind: "error", status: 502, route: "POST /graphql", applied: false, probability: 1 });
    await expect(store.claim("task:b", "r1", 60_000, T0)).rejects.toThrow(/updateRefs failed with no other writer in the way/);
    fake.faults.clear();
    expect((await store.inspect("task:b", T0)).epoch).toBe(0);
  });

  it("sends updateRefs with GitHub's schema preview media type", async () => {
    const { fake, name } = await freshStore();
    const [owner, repo] = name.split("/") as [string, string];
    const octokit = createTestOctokit(fake.url, "t-bot");
    const accepts: string[] = [];
    octokit.hook.before("request", (options) => {
      if (String(options.url).includes("graphql")) accepts.push(String(options.headers.accept ?? ""));
    });
    const store = new GitHubClaimStore({ refs: octokitClaimRefs(octokit, owner, repo) });
    expect((await store.claim("task:p", "r1", 60_000, T0)).granted).toBe(true);
    expect(accepts).toContain("application/vnd.github.update-refs-preview+json");
  });

  it("many replicas racing through separate clients for one item: exactly one wins, every round", async () => {
    const { fake, name } = await freshStore();
    const [owner, repo] = name.split("/") as [string, string];
    for (let round = 0; round < 10; round++) {
      const stores = Array.from({ length: 8 }, () => new GitHubClaimStore({ refs: octokitClaimRefs(createTestOctokit(fake.url, "t-bot"), owner, repo) }));
      const results = await Promise.all(stores.map((s, i) => s.claim(`task:race-${round}`, `replica-${i}`, 60_000, T0)));
      expect(results.filter((r) => r.granted)).toHaveLength(1);
    }
  });

  it("denies a grant when work is already linked to the item", async () => {
    const fake = await createFakeGitHub({ seed: 1 });
    fakes.push(fake);
    fake.addRepo({ fullName: "acme/ev" });
    fake.addToken("t", "bosun[bot]", { permissions: { "acme/ev": "write" } });
    const store = new GitHubClaimStore({ refs: octokitClaimRefs(createTestOctokit(fake.url, "t"), "acme", "ev"), evidence: async (key) => (key === "task:busy" ? "pull request #7 is open for it" : undefined) });
    expect(await store.claim("task:busy", "r", 60_000, T0)).toMatchObject({ granted: false, reason: "evidence", detail: "pull request #7 is open for it" });
    expect((await store.claim("task:free", "r", 60_000, T0)).granted).toBe(true);
  });
});

describe("GitHub claim batches of unknown outcome", () => {
  const T0 = Date.UTC(2026, 10, 30, 12);

  it("a batch whose update answered unknown counts as applied only when every ref it names moved to its commit", async () => {
    const { fake, name } = await freshStore();
    const [owner, repo] = name.split("/") as [string, string];
    const real = octokitClaimRefs(createTestOctokit(fake.url, "t-bot"), owner, repo);
    // An adversary: one ref of the batch ends up at the batch's commit (as a stale or half-read
    // listing could show it), the others do not, and GitHub answers with an error.
    const partial: typeof real = {
      ...real,
      async updateRefs(updates) {
        const first = updates.find((u) => u.to !== undefined);
        if (first !== undefined) fake.setRef(name, first.ref, first.to as string);
        return { unknown: "HTTP 502" };
      },
    };
    const store = new GitHubClaimStore({ refs: partial });
    await store.listClaims();
    const batch = store.newBatch(T0);
    expect(await store.planClaim(batch, "task:one", "r", 60_000)).toEqual({ planned: true });
    expect(await store.planClaim(batch, "task:two", "r", 60_000)).toEqual({ planned: true });
    const written = await store.commitBatch(batch);
    expect(written.ok).toBe(false);
  });
});
