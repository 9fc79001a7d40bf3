/**
 * Ref compare-and-swap, the primitive Bosun's claims stand on. Runs against the fake and, when
 * BOSUN_SANDBOX_TOKEN and BOSUN_SANDBOX_REPO are set, against a real sandbox repository.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { commitOnHead, contractTargets, type ContractTarget } from "./contract-target.js";

describe.each(contractTargets(process.env))("git refs on $name", ({ make }) => {
  let t: ContractTarget;
  let base: string;
  beforeAll(async () => {
    t = await make();
    base = await commitOnHead(t.writer(), t.owner, t.repo, "contract base");
  });
  afterAll(async () => {
    await t.close();
  });

  test("creating a ref that exists answers 422 Reference already exists, and leaves it unchanged", async () => {
    const o = t.writer();
    const ref = t.uniqueRef("create-twice");
    const other = await commitOnHead(o, t.owner, t.repo, "other");
    const first = await o.git.createRef({ owner: t.owner, repo: t.repo, ref, sha: base });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ ref, object: { sha: base, type: "commit" } });
    await expect(o.git.createRef({ owner: t.owner, repo: t.repo, ref, sha: other })).rejects.toMatchObject({
      status: 422,
      response: { data: { message: "Reference already exists" } },
    });
    const read = await o.git.getRef({ owner: t.owner, repo: t.repo, ref: ref.slice("refs/".length) });
    expect(read.data.object.sha).toBe(base);
  });

  test("update with force false is a compare-and-swap: fast-forward 200, anything else 422", async () => {
    const o = t.writer();
    const ref = t.uniqueRef("cas");
    const short = ref.slice("refs/".length);
    await o.git.createRef({ owner: t.owner, repo: t.repo, ref, sha: base });
    const child = await commitOnHead(o, t.owner, t.repo, "child", base);
    const sibling = await commitOnHead(o, t.owner, t.repo, "sibling", base);
    const ff = await o.git.updateRef({ owner: t.owner, repo: t.repo, ref: short, sha: child, force: false });
    expect(ff.status).toBe(200);
    expect(ff.data.object.sha).toBe(child);
    await expect(o.git.updateRef({ owner: t.owner, repo: t.repo, ref: short, sha: sibling, force: false })).rejects.toMatchObject({
      status: 422,
      response: { data: { message: "Update is not a fast forward" } },
    });
    expect((await o.git.getRef({ owner: t.owner, repo: t.repo, ref: short })).data.object.sha).toBe(child);
    const forced = await o.git.updateRef({ owner: t.owner, repo: t.repo, ref: short, sha: sibling, force: true });
    expect(forced.data.object.sha).toBe(sibling);
  });

  test("refs live in any namespace and read back with an encoded or a raw slash", async () => {
    const o = t.writer();
    const ref = t.uniqueRef("claims/42");
    await o.git.createRef({ owner: t.owner, repo: t.repo, ref, sha: base });
    // Octokit 22 sends `bosun-contract%2F...`; a hand-made request sends raw slashes.
    const encoded = await o.git.getRef({ owner: t.owner, repo: t.repo, ref: ref.slice(5) });
    const raw = await o.request(`GET /repos/${t.owner}/${t.repo}/git/ref/${ref.slice(5)}`);
    expect(encoded.data.ref).toBe(ref);
    expect((raw.data as { ref: string }).ref).toBe(ref);
    const prefix = ref.slice(5, ref.lastIndexOf("/"));
    const matching = await o.git.listMatchingRefs({ owner: t.owner, repo: t.repo, ref: prefix });
    expect(matching.data.map((r) => r.ref)).toContain(ref);
  });

  test("a missing ref reads 404; deleting it twice answers 204 then 422", async () => {
    const o = t.writer();
    const ref = t.uniqueRef("delete-me");
    await expect(o.git.getRef({ owner: t.owner, repo: t.repo, ref: ref.slice(5) })).rejects.toMatchObject({ status: 404 });
    await o.git.createRef({ owner: t.owner, repo: t.repo, ref, sha: base });
    expect((await o.git.deleteRef({ owner: t.owner, repo: t.repo, ref: ref.slice(5) })).status).toBe(204);
    await expect(o.git.deleteRef({ owner: t.owner, repo: t.repo, ref: ref.slice(5) })).rejects.toMatchObject({ status: 422 });
  });

  test("8 concurrent clients creating one ref: exactly one 201 and seven 422s, every round", async () => {
    const rounds = t.name === "fake" ? 50 : 5;
    const clients = Array.from({ length: 8 }, () => t.writer());
    for (let round = 0; round < rounds; round++) {
      const ref = t.uniqueRef(`race/${round}`);
      const results = await Promise.allSettled(clients.map((o) => o.git.createRef({ owner: t.owner, repo: t.repo, ref, sha: base })));
      const statuses = results.map((r) => (r.status === "fulfilled" ? r.value.status : (r.reason as { status: number }).status)).sort();
      expect(statuses, `round ${round}`).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
    }
  });
});
