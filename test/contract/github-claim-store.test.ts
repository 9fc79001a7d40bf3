import { afterAll, describe, expect, it } from "vitest";
import { createFakeGitHub } from "../fake-github/create-fake-github.js";
import type { FakeGitHub } from "../fake-github/create-fake-github.js";
import { createTestOctokit } from "../fake-github/test-octokit.js";
import { octokitClaimRefs } from "../../src/adapters/github/claim-refs-api.js";
import { GitHubClaimStore } from "../../src/adapters/github/github-claim-store.js";
import { parseClaimMessage } from "../../src/adapters/github/claim-record.js";
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
    const head = repo.refs.get("refs/bosun/claims/task/x");
    expect(head).toBeDefined();
    const settled = parseClaimMessage(repo.commits.get(head as string)?.message ?? "");
    expect(settled).toMatchObject({ key: "task:x", holder: "replica-1", epoch: 1, state: "settled", outcome: { ok: true } });
    const parent = repo.commits.get(head as string)?.parents[0] as string;
    expect(parseClaimMessage(repo.commits.get(parent)?.message ?? "")).toMatchObject({ state: "held", leaseUntil: T0 + 60_000 });
  });

  it("a spurious 422 that did land still grants, and one that did not is not taken as a grant", async () => {
    const { store, fake } = await freshStore();
    fake.faults.add({ kind: "spurious-422", applied: true, times: 1 });
    expect((await store.claim("task:a", "r1", 60_000, T0)).granted).toBe(true);
    fake.faults.add({ kind: "spurious-422", applied: false, times: 1 });
    expect(await store.claim("task:b", "r1", 60_000, T0)).toMatchObject({ granted: false });
    expect((await store.inspect("task:b", T0)).epoch).toBe(0);
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
