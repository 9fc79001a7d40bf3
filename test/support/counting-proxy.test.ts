/**
 * The counting proxy of `bench/api-economy-app.ts`: it forwards what a client sends to the fake
 * GitHub and writes down each request with the status it forwarded, GitHub's kind (mutative or not)
 * and a route template read from the path alone. Judged against what the fake recorded.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "../fake-github/create-fake-github.js";
import { createTestOctokit } from "../fake-github/test-octokit.js";
import { createCountingProxy, isGraphqlMutation, routeTemplate, type CountingProxy } from "./counting-proxy.js";

let fake: FakeGitHub | undefined;
let proxy: CountingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await fake?.close();
});

describe("route templates, from the path alone", () => {
  test.each([
    ["/repos/acme/app/issues", "/repos/{owner}/{repo}/issues"],
    ["/repos/acme/app/issues/12/labels", "/repos/{owner}/{repo}/issues/{issue_number}/labels"],
    ["/repos/acme/app/issues/12/labels/bosun%3Aready", "/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}"],
    ["/repos/acme/app/issues/events?per_page=100", "/repos/{owner}/{repo}/issues/events"],
    ["/repos/acme/app/issues/comments/77", "/repos/{owner}/{repo}/issues/comments/{comment_id}"],
    ["/repos/acme/app/git/matching-refs/bosun%2Fclaims%2F", "/repos/{owner}/{repo}/git/matching-refs/{ref}"],
    ["/repos/acme/app/git/commits/0123abcd", "/repos/{owner}/{repo}/git/commits/{commit_sha}"],
    ["/repos/acme/app/commits/0123abcd/check-runs", "/repos/{owner}/{repo}/commits/{ref}/check-runs"],
    ["/repos/acme/app/actions/workflows/bosun-work.yml/dispatches", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches"],
    ["/repos/acme/app/contents/.github%2Fbosun.yml", "/repos/{owner}/{repo}/contents/{path}"],
    ["/repos/acme/app/collaborators/mona/permission", "/repos/{owner}/{repo}/collaborators/{username}/permission"],
    ["/app/installations/501/access_tokens", "/app/installations/{installation_id}/access_tokens"],
  ])("%s", (path, template) => {
    expect(routeTemplate(path)).toBe(template);
  });
});

describe("GraphQL: a mutation writes, a query reads", () => {
  test.each([
    [{ query: "mutation ($id: ID!) { pinIssue(input: {issueId: $id}) { issue { id } } }" }, true],
    [{ query: "  # a comment\n mutation Refs { updateRefs(input: {}) { clientMutationId } }" }, true],
    [{ query: "query { repository(owner: \"a\", name: \"b\") { id } }" }, false],
    [{ query: "{ repository(owner: \"a\", name: \"b\") { id } }" }, false],
    [{ query: "query Q { viewer { login } } mutation M { pinIssue(input: {}) { issue { id } } }", operationName: "Q" }, false],
    [{ query: "query Q { viewer { login } } mutation M { pinIssue(input: {}) { issue { id } } }", operationName: "M" }, true],
  ])("%j", (body, mutation) => {
    expect(isGraphqlMutation(JSON.stringify(body))).toBe(mutation);
  });
});

test("every request forwarded is logged once, with the status the fake answered, 304s included", async () => {
  fake = await createFakeGitHub({ seed: 1 });
  fake.addRepo({ fullName: "acme/app" });
  fake.addToken("t-mona", "mona", { permissions: { "acme/app": "maintain" } });
  for (let i = 0; i < 3; i++) fake.addIssue("acme/app", { title: `#${i}`, labels: ["x"] });
  proxy = createCountingProxy(fake.url);
  const octokit = createTestOctokit(await proxy.open("mona"), "t-mona");
  const from = fake.accounting.log.length;
  const first = await octokit.rest.issues.listForRepo({ owner: "acme", repo: "app", per_page: 2 });
  // Pages are followed through the proxy, not around it.
  const all = await octokit.paginate(octokit.rest.issues.listForRepo, { owner: "acme", repo: "app", per_page: 2 });
  const again = await octokit.rest.issues.listForRepo({ owner: "acme", repo: "app", per_page: 2, headers: { "if-none-match": first.headers.etag ?? "" } }).catch((e: { status: number }) => e);
  await octokit.rest.issues.setLabels({ owner: "acme", repo: "app", issue_number: 1, labels: ["y"] });
  const seen = fake.accounting.log.slice(from).map((e) => `${e.method} ${e.status}`);
  expect(all).toHaveLength(3);
  expect((again as { status: number }).status).toBe(304);
  expect(proxy.log.map((e) => `${e.method} ${e.status}`)).toEqual(seen);
  expect(proxy.log.map((e) => [e.client, e.route, e.mutative])).toEqual([
    ["mona", "GET /repos/{owner}/{repo}/issues", false],
    ["mona", "GET /repos/{owner}/{repo}/issues", false],
    ["mona", "GET /repos/{owner}/{repo}/issues", false],
    ["mona", "GET /repos/{owner}/{repo}/issues", false],
    ["mona", "PUT /repos/{owner}/{repo}/issues/{issue_number}/labels", true],
  ]);
});
