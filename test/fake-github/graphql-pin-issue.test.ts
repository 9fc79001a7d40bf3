/** GitHub's GraphQL `pinIssue`, through the real Octokit's `graphql()`. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Octokit } from "@octokit/rest";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { createTestOctokit } from "./test-octokit.js";
import { graphqlFailure } from "./graphql-failure.js";

const repo = { owner: "acme", repo: "app" };
const PIN_ISSUE = "mutation($input: PinIssueInput!) { pinIssue(input: $input) { issue { id } clientMutationId } }";

describe("POST /graphql: pinIssue", () => {
  let fake: FakeGitHub;
  let o: Octokit;
  beforeEach(async () => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: "acme/app" });
    fake.addRepo({ fullName: "acme/secret", private: true });
    fake.addToken("t-write", "mona", { permissions: { "acme/app": "write" } });
    fake.addToken("t-triage", "tia", { permissions: { "acme/app": "triage" } });
    fake.addToken("t-read", "reed", { permissions: { "acme/app": "read" } });
    fake.addToken("t-bot-read", "reader[bot]", { permissions: { "acme/app": "read" } });
    fake.addToken("t-bot-write", "writer[bot]", { permissions: { "acme/app": "write" } });
    o = createTestOctokit(fake.url, "t-write");
  });
  afterEach(async () => {
    await fake.close();
  });

  /** The issue's node id, as REST reports it. */
  const issueId = async (n: number): Promise<string> => (await o.issues.get({ ...repo, issue_number: n })).data.node_id;
  const pin = (client: Octokit, id: string, clientMutationId?: string) =>
    client.graphql<{ pinIssue: { issue: { id: string }; clientMutationId: string | null } }>(PIN_ISSUE, { input: { issueId: id, ...(clientMutationId === undefined ? {} : { clientMutationId }) } });
  const pinned = () => fake.repo("acme/app").pinnedIssues;

  test("pins the issue, answers its id and the clientMutationId, and is accounted as POST /graphql", async () => {
    const issue = fake.addIssue("acme/app", { title: "Read me first" });
    const id = await issueId(issue.number);
    fake.accounting.reset();
    expect(await pin(o, id, "m-1")).toEqual({ pinIssue: { issue: { id }, clientMutationId: "m-1" } });
    expect(await pin(createTestOctokit(fake.url, "t-bot-write"), id)).toEqual({ pinIssue: { issue: { id }, clientMutationId: null } });
    expect(pinned()).toEqual([issue.number]);
    expect(fake.accounting.log.map((e) => [e.route, e.status, e.login])).toEqual([
      ["POST /graphql", 200, "mona"],
      ["POST /graphql", 200, "writer[bot]"],
    ]);
    // REST v3 reports nothing about pinning: the issue JSON is unchanged.
    const { data } = await o.issues.get({ ...repo, issue_number: issue.number });
    expect(Object.keys(data).filter((k) => /pin/i.test(k))).toEqual([]);
    // Aliases and the other served Issue fields.
    const aliased = await o.graphql<{ p: { issue: { number: number; isPinned: boolean; __typename: string } } }>("mutation M($id: ID!) { p: pinIssue(input: {issueId: $id}) { issue { number isPinned __typename } } }", { id });
    expect(aliased).toEqual({ p: { issue: { number: issue.number, isPinned: true, __typename: "Issue" } } });
  });

  test("pinning a pinned issue succeeds and changes nothing; pins keep their order", async () => {
    const [a, b] = [fake.addIssue("acme/app"), fake.addIssue("acme/app")];
    const [idA, idB] = [await issueId(a.number), await issueId(b.number)];
    await pin(o, idB);
    await pin(o, idA);
    await pin(o, idB);
    expect(pinned()).toEqual([b.number, a.number]);
  });

  test("a fourth pin is UNPROCESSABLE and changes nothing; re-pinning one of the three still succeeds", async () => {
    const issues = [1, 2, 3, 4].map(() => fake.addIssue("acme/app"));
    const ids = await Promise.all(issues.map((i) => issueId(i.number)));
    for (const id of ids.slice(0, 3)) await pin(o, id);
    const failure = await graphqlFailure(pin(o, ids[3] as string));
    expect(failure.data).toEqual({ pinIssue: null });
    expect(failure.errors).toEqual([{ type: "UNPROCESSABLE", path: ["pinIssue"], locations: [{ line: 1, column: PIN_ISSUE.indexOf("pinIssue(") + 1 }], message: "Pinned issues limit reached: a repository can pin at most 3 issues" }]);
    expect(pinned()).toEqual(issues.slice(0, 3).map((i) => i.number));
    await pin(o, ids[0] as string);
    expect(pinned()).toEqual(issues.slice(0, 3).map((i) => i.number));
  });

  test("read and triage access are FORBIDDEN (pinning needs write); admin may pin; no token is 401", async () => {
    const issue = fake.addIssue("acme/app");
    const id = await issueId(issue.number);
    const bot = await graphqlFailure(pin(createTestOctokit(fake.url, "t-bot-read"), id));
    expect(bot.data).toEqual({ pinIssue: null });
    expect(bot.errors).toMatchObject([{ type: "FORBIDDEN", path: ["pinIssue"], message: "Resource not accessible by integration" }]);
    for (const token of ["t-read", "t-triage"]) {
      const user = await graphqlFailure(pin(createTestOctokit(fake.url, token), id));
      expect(user.errors).toMatchObject([{ type: "FORBIDDEN", message: "Resource not accessible by personal access token" }]);
    }
    await expect(pin(createTestOctokit(fake.url, undefined), id)).rejects.toMatchObject({ status: 401 });
    expect(pinned()).toEqual([]);
    fake.addToken("t-owner", "acme");
    await pin(createTestOctokit(fake.url, "t-owner"), id);
    expect(pinned()).toEqual([issue.number]);
  });

  test("an unknown id, an issue in a repository the caller cannot see, and a pull request are NOT_FOUND", async () => {
    const hidden = fake.addIssue("acme/secret");
    const hiddenId = Buffer.from(`Issue:${hidden.id}`).toString("base64").replace(/=+$/, "");
    for (const id of ["I_nope", hiddenId]) {
      const failure = await graphqlFailure(pin(o, id));
      expect(failure.errors).toMatchObject([{ type: "NOT_FOUND", path: ["pinIssue"], message: `Could not resolve to a node with the global id of '${id}'` }]);
    }
    const pull = fake.addPull("acme/app", { head: "topic" });
    const pullIds = [(await o.issues.get({ ...repo, issue_number: pull.number })).data.node_id, (await o.pulls.get({ ...repo, pull_number: pull.number })).data.node_id];
    for (const id of pullIds) {
      const failure = await graphqlFailure(pin(o, id));
      expect(failure.errors).toMatchObject([{ type: "NOT_FOUND", path: ["pinIssue"], message: `Could not resolve to Issue node with the global id of '${id}'` }]);
    }
    expect(pinned()).toEqual([]);
    expect(fake.repo("acme/secret").pinnedIssues).toEqual([]);
  });

  test("a malformed input or an unserved selection is an error and pins nothing", async () => {
    const id = await issueId(fake.addIssue("acme/app").number);
    const documents: Array<[string, Record<string, unknown>, RegExp]> = [
      [PIN_ISSUE, { input: {} }, /invalid value for issueId \(Expected value to not be null\)/],
      [PIN_ISSUE, { input: { issueId: id, repositoryId: "R_x" } }, /invalid value for repositoryId \(Field is not defined on PinIssueInput\)/],
      [PIN_ISSUE, { input: { issueId: true } }, /Could not coerce value true to ID/],
      ["mutation($input: PinIssueInput!) { pinIssue(input: $input) { issue { body } } }", { input: { issueId: id } }, /Field 'body' doesn't exist on type 'Issue'/],
      ["mutation($input: PinIssueInput!) { pinIssue(input: $input) { issue } }", { input: { issueId: id } }, /Field must have selections \(field 'issue' returns Issue/],
      ["mutation($input: PinIssueInput!) { pinIssue(input: $input) { pinnedIssue { id } } }", { input: { issueId: id } }, /Field 'pinnedIssue' doesn't exist on type 'PinIssuePayload'/],
      ["query($input: PinIssueInput!) { pinIssue(input: $input) { clientMutationId } }", { input: { issueId: id } }, /Field 'pinIssue' doesn't exist on type 'Query'/],
    ];
    for (const [query, variables, message] of documents) {
      const failure = await graphqlFailure(o.graphql(query, variables));
      expect(failure.errors[0]?.message).toMatch(message);
    }
    expect(pinned()).toEqual([]);
  });

  test("a pin sends issues.pinned once; re-pinning sends nothing", async () => {
    const received: string[] = [];
    const server: Server = createServer((req, res) => {
      received.push(String(req.headers["x-github-event"]));
      req.resume().on("end", () => res.writeHead(202).end());
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const issue = fake.addIssue("acme/app", { title: "Dashboard" });
      const id = await issueId(issue.number);
      fake.webhooks.register({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, secret: "s", events: ["issues"] });
      await pin(o, id);
      await pin(o, id);
      await fake.webhooks.flush();
      expect(fake.webhooks.deliveries.map((d) => [d.event, d.action])).toEqual([["issues", "pinned"]]);
      expect(fake.webhooks.deliveries[0]?.payload).toMatchObject({ action: "pinned", issue: { number: issue.number, node_id: id, title: "Dashboard" }, sender: { login: "mona" } });
      expect(received).toEqual(["issues"]);
    } finally {
      server.close();
    }
  });
});
