/** Pagination (per_page, Link headers) and conditional requests (ETag → 304), on the fake and a sandbox. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { contractTargets, type ContractTarget } from "./contract-target.js";

describe.each(contractTargets(process.env))("pagination and ETags on $name", ({ make }) => {
  let t: ContractTarget;
  beforeAll(async () => {
    t = await make();
    const o = t.writer();
    for (const n of [1, 2, 3]) {
      await o.issues.createLabel({ owner: t.owner, repo: t.repo, name: `contract-${Date.now().toString(36)}-${n}`, color: "00ff00" }).catch(() => undefined);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  test("per_page=2 returns two items and a Link header with rel=next and rel=last", async () => {
    const res = await t.writer().issues.listLabelsForRepo({ owner: t.owner, repo: t.repo, per_page: 2 });
    expect(res.data).toHaveLength(2);
    expect(res.headers.link).toMatch(/<[^>]*[?&]page=2[^>]*>; rel="next"/);
    expect(res.headers.link).toMatch(/rel="last"/);
  });

  test("the last page has rel=prev and rel=first but no rel=next, and octokit.paginate sees every item once", async () => {
    const o = t.writer();
    const all = await o.paginate(o.issues.listLabelsForRepo, { owner: t.owner, repo: t.repo, per_page: 2 });
    expect(new Set(all.map((l) => l.name)).size).toBe(all.length);
    const lastPage = Math.ceil(all.length / 2);
    const last = await o.issues.listLabelsForRepo({ owner: t.owner, repo: t.repo, per_page: 2, page: lastPage });
    expect(last.headers.link).toMatch(/rel="prev"/);
    expect(last.headers.link).toMatch(/rel="first"/);
    expect(last.headers.link ?? "").not.toMatch(/rel="next"/);
  });

  test("If-None-Match with the ETag of an unchanged resource answers 304", async () => {
    const o = t.writer();
    const first = await o.repos.get({ owner: t.owner, repo: t.repo });
    const etag = first.headers.etag;
    expect(etag).toBeDefined();
    await expect(o.repos.get({ owner: t.owner, repo: t.repo, headers: { "if-none-match": etag } })).rejects.toMatchObject({ status: 304 });
  });

  test("after a change the same ETag no longer matches", async () => {
    const o = t.writer();
    const name = `etag-${Date.now().toString(36)}`;
    const before = await o.issues.listLabelsForRepo({ owner: t.owner, repo: t.repo, per_page: 100 });
    await o.issues.createLabel({ owner: t.owner, repo: t.repo, name, color: "ff0000" });
    const after = await o.issues.listLabelsForRepo({ owner: t.owner, repo: t.repo, per_page: 100, headers: { "if-none-match": before.headers.etag } });
    expect(after.status).toBe(200);
    expect(after.data.map((l) => l.name)).toContain(name);
    await o.issues.deleteLabel?.({ owner: t.owner, repo: t.repo, name }).catch(() => undefined);
  });
});
