/** GitHub's GraphQL reads a client warms its caches with: `repository { refs }` and `repository { issues }`, through the real Octokit. */
import type { Octokit } from "@octokit/rest";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ManualClock } from "./clock.js";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { createTestOctokit } from "./test-octokit.js";
import { graphqlFailure } from "./graphql-failure.js";

interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

const REFS = `query($owner: String!, $name: String!, $prefix: String!, $first: Int, $after: String) {
  repository(owner: $owner, name: $name) {
    refs(refPrefix: $prefix, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes { name prefix target { __typename oid ... on Commit { message } } }
    }
  }
}`;

interface RefsData {
  repository: { refs: { totalCount: number; pageInfo: PageInfo; nodes: Array<{ name: string; prefix: string; target: { __typename: string; oid: string; message?: string } }> } };
}

const ISSUES = `query($owner: String!, $name: String!, $labels: [String!], $after: String) {
  repository(owner: $owner, name: $name) {
    issues(labels: $labels, states: [OPEN], first: 2, after: $after, orderBy: {field: CREATED_AT, direction: ASC}) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes {
        number title createdAt updatedAt
        labels(first: 100) { nodes { name } }
        comments(last: 2) { totalCount nodes { databaseId body createdAt author { __typename login } } }
      }
    }
  }
}`;

interface IssueNode {
  number: number;
  title: string;
  createdAt: string;
  updatedAt: string;
  labels: { nodes: Array<{ name: string }> };
  comments: { totalCount: number; nodes: Array<{ databaseId: number; body: string; createdAt: string; author: { __typename: string; login: string } }> };
}

interface IssuesData {
  repository: { issues: { totalCount: number; pageInfo: PageInfo; nodes: IssueNode[] } };
}

describe("POST /graphql: repository reads", () => {
  let fake: FakeGitHub;
  let o: Octokit;
  const repo = { owner: "acme", name: "app" };
  beforeEach(async () => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: "acme/app" });
    fake.addRepo({ fullName: "acme/secret", private: true });
    // Read access is all a read needs, GraphQL or not.
    fake.addToken("t-read", "reed", { permissions: { "acme/app": "read" } });
    fake.addToken("t-write", "mona", { permissions: { "acme/app": "write" } });
    fake.addToken("t-bosun", "bosun[bot]", { permissions: { "acme/app": "write" } });
    o = createTestOctokit(fake.url, "t-read");
  });
  afterEach(async () => {
    await fake.close();
  });

  describe("refs", () => {
    const prefix = "refs/bosun/claims/";

    test("pages through 150 refs under a prefix in alphabetical order, names without the prefix, messages through the inline fragment", async () => {
      const main = fake.repo("acme/app").refs.get("refs/heads/main") as string;
      const claims = Array.from({ length: 150 }, (_, i) => String(i + 1));
      for (const n of claims) fake.setRef("acme/app", `${prefix}${n}`, main);
      const claim7 = fake.commit("acme/app", `${prefix}7`, "Claim 7 for replica-2");
      fake.setRef("acme/app", "refs/bosun/other/1", main); // outside the prefix
      fake.accounting.reset();

      const first = await o.graphql<RefsData>(REFS, { ...repo, prefix, first: 100 });
      expect(first.repository.refs.totalCount).toBe(150);
      expect(first.repository.refs.pageInfo.hasNextPage).toBe(true);
      expect(first.repository.refs.nodes).toHaveLength(100);
      const second = await o.graphql<RefsData>(REFS, { ...repo, prefix, first: 100, after: first.repository.refs.pageInfo.endCursor });
      expect(second.repository.refs.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) as unknown });
      expect(second.repository.refs.nodes).toHaveLength(50);

      const nodes = [...first.repository.refs.nodes, ...second.repository.refs.nodes];
      // Alphabetical, as git sorts names: "1", "10", "100", "101", ..., "11", ...
      expect(nodes.map((n) => n.name)).toEqual([...claims].sort());
      expect(nodes.every((n) => n.prefix === prefix)).toBe(true);
      expect(nodes.find((n) => n.name === "7")?.target).toEqual({ __typename: "Commit", oid: claim7.sha, message: "Claim 7 for replica-2" });
      expect(nodes.find((n) => n.name === "8")?.target).toEqual({ __typename: "Commit", oid: main, message: "Initial commit" });
      // A query is counted as a read (a mutation as content-creating).
      expect(fake.accounting.log.map((e) => [e.route, e.kind, e.status, e.login])).toEqual([
        ["POST /graphql", "read", 200, "reed"],
        ["POST /graphql", "read", 200, "reed"],
      ]);
    });

    test("a cursor outlives the ref it was taken at", async () => {
      const main = fake.repo("acme/app").refs.get("refs/heads/main") as string;
      for (const n of ["a", "b", "c", "d"]) fake.setRef("acme/app", `${prefix}${n}`, main);
      const first = await o.graphql<RefsData>(REFS, { ...repo, prefix, first: 2 });
      expect(first.repository.refs.nodes.map((n) => n.name)).toEqual(["a", "b"]);
      fake.repo("acme/app").refs.delete(`${prefix}b`);
      const second = await o.graphql<RefsData>(REFS, { ...repo, prefix, first: 2, after: first.repository.refs.pageInfo.endCursor });
      expect(second.repository.refs.nodes.map((n) => n.name)).toEqual(["c", "d"]);
    });

    test("refPrefix must end with '/', first is at most 100, cursors must be ours, and nodes need first or last", async () => {
      const noSlash = await graphqlFailure(o.graphql(REFS, { ...repo, prefix: "refs/bosun/claims", first: 10 }));
      expect(noSlash.errors).toMatchObject([{ path: ["repository", "refs"], message: expect.stringMatching(/^refPrefix must end with '\/'/) as unknown }]);
      const tooMany = await graphqlFailure(o.graphql(REFS, { ...repo, prefix, first: 101 }));
      expect(tooMany.errors).toEqual([
        { type: "EXCESSIVE_PAGINATION", path: ["repository", "refs"], locations: [{ line: 3, column: 5 }], message: "Requesting 101 records on the `refs` connection exceeds the `first` limit of 100 records." },
      ]);
      const badCursor = await graphqlFailure(o.graphql(REFS, { ...repo, prefix, first: 10, after: "nope" }));
      expect(badCursor.errors).toMatchObject([{ type: "INVALID_CURSOR_ARGUMENTS", message: "`nope` does not appear to be a valid cursor." }]);
      const unbounded = await graphqlFailure(o.graphql(REFS, { ...repo, prefix }));
      expect(unbounded.errors).toMatchObject([{ type: "MISSING_PAGINATION_BOUNDARIES" }]);
      // totalCount alone needs no page size.
      expect(await o.graphql(`{ repository(owner: "acme", name: "app") { refs(refPrefix: "refs/heads/") { totalCount } } }`)).toEqual({ repository: { refs: { totalCount: 1 } } });
    });

    test("a private repository the caller cannot read is NOT_FOUND", async () => {
      const failure = await graphqlFailure(o.graphql(REFS, { owner: "acme", name: "secret", prefix, first: 10 }));
      expect(failure.errors).toMatchObject([{ type: "NOT_FOUND", path: ["repository"], message: "Could not resolve to a Repository with the name 'acme/secret'." }]);
      expect(failure.data).toEqual({ repository: null });
    });
  });

  describe("issues", () => {
    const clock = (): ManualClock => fake.clock as ManualClock;
    const comment = async (token: string, issueNumber: number, body: string): Promise<number> => {
      clock().advance(60_000);
      const { data } = await createTestOctokit(fake.url, token).issues.createComment({ owner: "acme", repo: "app", issue_number: issueNumber, body });
      return data.id;
    };

    test("open issues with any of the labels, no pull requests, paginated, with the newest two comments oldest first", async () => {
      const add = (title: string, labels: string[], state: "open" | "closed" = "open") => {
        clock().advance(1000);
        return fake.addIssue("acme/app", { title, labels, state });
      };
      const ready = add("Ready", ["bosun:ready"]);
      add("Closed", ["bosun:ready"], "closed");
      const queued = add("Queued", ["bosun:queued"]);
      add("Unrelated", ["bug"]);
      clock().advance(1000);
      fake.addPull("acme/app", { title: "A pull request", labels: ["bosun:ready"] });
      const both = add("Both", ["bosun:queued", "bosun:ready"]);

      const ids = [await comment("t-write", ready.number, "first"), await comment("t-bosun", ready.number, "second"), await comment("t-write", ready.number, "third")];
      const labels = ["bosun:ready", "bosun:queued"];
      const first = await o.graphql<IssuesData>(ISSUES, { ...repo, labels });
      expect(first.repository.issues.totalCount).toBe(3);
      expect(first.repository.issues.pageInfo.hasNextPage).toBe(true);
      const second = await o.graphql<IssuesData>(ISSUES, { ...repo, labels, after: first.repository.issues.pageInfo.endCursor });
      expect(second.repository.issues.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) as unknown });
      const nodes = [...first.repository.issues.nodes, ...second.repository.issues.nodes];
      expect(nodes.map((n) => n.number)).toEqual([ready.number, queued.number, both.number]);

      const [readyNode, , bothNode] = nodes as [IssueNode, IssueNode, IssueNode];
      expect(readyNode.title).toBe("Ready");
      expect(readyNode.createdAt).toBe(new Date(ready.createdAt).toISOString().replace(".000Z", "Z"));
      // The last comment touched the issue.
      expect(readyNode.updatedAt).toBe(readyNode.comments.nodes[1]?.createdAt);
      expect(readyNode.comments.totalCount).toBe(3);
      expect(readyNode.comments.nodes).toEqual([
        { databaseId: ids[1], body: "second", createdAt: "2026-01-01T00:02:06Z", author: { __typename: "Bot", login: "bosun" } },
        { databaseId: ids[2], body: "third", createdAt: "2026-01-01T00:03:06Z", author: { __typename: "User", login: "mona" } },
      ]);
      expect(bothNode.labels.nodes.map((l) => l.name)).toEqual(["bosun:ready", "bosun:queued"]); // label creation order
      expect(bothNode.comments).toEqual({ totalCount: 0, nodes: [] });
    });

    test("states, ordering and comments(first:)", async () => {
      const a = fake.addIssue("acme/app", { title: "a" });
      clock().advance(1000);
      const b = fake.addIssue("acme/app", { title: "b", state: "closed" });
      clock().advance(1000);
      const c = fake.addIssue("acme/app", { title: "c" });
      await comment("t-write", a.number, "bumps a");
      await comment("t-write", a.number, "again");
      const query = `query($orderBy: IssueOrder, $states: [IssueState!]) {
        repository(owner: "acme", name: "app") { issues(first: 10, states: $states, orderBy: $orderBy) { nodes { number comments(first: 1) { nodes { body } } } } }
      }`;
      const numbers = async (variables: Record<string, unknown>) =>
        (await o.graphql<{ repository: { issues: { nodes: Array<{ number: number }> } } }>(query, variables)).repository.issues.nodes.map((n) => n.number);
      expect(await numbers({})).toEqual([a.number, b.number, c.number]);
      expect(await numbers({ states: ["CLOSED"] })).toEqual([b.number]);
      expect(await numbers({ orderBy: { field: "CREATED_AT", direction: "DESC" } })).toEqual([c.number, b.number, a.number]);
      expect(await numbers({ orderBy: { field: "UPDATED_AT", direction: "DESC" }, states: ["OPEN"] })).toEqual([a.number, c.number]);
      const firstComment = await o.graphql<{ repository: { issues: { nodes: Array<{ comments: { nodes: Array<{ body: string }> } }> } } }>(query, { states: "OPEN" });
      expect(firstComment.repository.issues.nodes[0]?.comments.nodes).toEqual([{ body: "bumps a" }]);
      const badState = await graphqlFailure(o.graphql(query, { states: ["MERGED"] }));
      expect(badState.errors[0]?.message).toMatch(/Variable \$states of type \[IssueState!\] was provided invalid value for 0 \(Expected "MERGED" to be one of: OPEN, CLOSED\)/);
      const tooMany = await graphqlFailure(o.graphql(`{ repository(owner: "acme", name: "app") { issues(first: 1) { nodes { comments(last: 101) { totalCount } } } } }`));
      expect(tooMany.errors).toMatchObject([{ type: "EXCESSIVE_PAGINATION", path: ["repository", "issues", "nodes", 0, "comments"], message: "Requesting 101 records on the `comments` connection exceeds the `last` limit of 100 records." }]);
    });

    test("issue(number): lastEditedAt and editor follow body edits only, at whole seconds; a pull request's number is NOT_FOUND", async () => {
      const query = `query($number: Int!) { repository(owner: "acme", name: "app") { issue(number: $number) { number updatedAt lastEditedAt editor { __typename login } } } }`;
      type Data = { repository: { issue: { number: number; updatedAt: string; lastEditedAt: string | null; editor: { __typename: string; login: string } | null } } };
      const issue = fake.addIssue("acme/app", { title: "t", body: "first" });
      const read = async () => (await o.graphql<Data>(query, { number: issue.number })).repository.issue;
      expect(await read()).toEqual({ number: issue.number, updatedAt: "2026-01-01T00:00:00Z", lastEditedAt: null, editor: null });
      const mona = createTestOctokit(fake.url, "t-write");
      clock().advance(1_500);
      // Labels, comments and titles move updatedAt, never lastEditedAt.
      await mona.issues.addLabels({ owner: "acme", repo: "app", issue_number: issue.number, labels: ["bug"] });
      await mona.issues.update({ owner: "acme", repo: "app", issue_number: issue.number, title: "renamed" });
      await comment("t-write", issue.number, "a comment");
      expect(await read()).toMatchObject({ lastEditedAt: null, editor: null });
      await mona.issues.update({ owner: "acme", repo: "app", issue_number: issue.number, body: "second" });
      expect(await read()).toEqual({ number: issue.number, updatedAt: "2026-01-01T00:01:01Z", lastEditedAt: "2026-01-01T00:01:01Z", editor: { __typename: "User", login: "mona" } });
      // The same text again is no edit.
      clock().advance(5_000);
      await mona.issues.update({ owner: "acme", repo: "app", issue_number: issue.number, body: "second" });
      expect((await read()).lastEditedAt).toBe("2026-01-01T00:01:01Z");
      const pull = fake.addPull("acme/app", { title: "A pull request" });
      const notIssue = await graphqlFailure(o.graphql(query, { number: pull.number }));
      expect(notIssue.errors).toMatchObject([{ type: "NOT_FOUND", path: ["repository", "issue"], message: `Could not resolve to an Issue with the number of ${pull.number}.` }]);
      const missing = await graphqlFailure(o.graphql(query, { number: 9999 }));
      expect(missing.errors).toMatchObject([{ type: "NOT_FOUND", path: ["repository", "issue"] }]);
    });
  });

  describe("inline fragments", () => {
    const target = (selection: string) => `{ repository(owner: "acme", name: "app") { refs(refPrefix: "refs/heads/", first: 1) { nodes { target { ${selection} } } } } }`;
    const targetOf = async (selection: string) => ((await o.graphql<{ repository: { refs: { nodes: Array<{ target: unknown }> } } }>(target(selection))).repository.refs.nodes[0] as { target: unknown }).target;

    test("apply when the type matches, are skipped for the other possible types, and merge with the fields around them", async () => {
      const main = fake.repo("acme/app").refs.get("refs/heads/main") as string;
      expect(await targetOf("... on Tag { name } ... on GitObject { oid } ... on Commit { message oid }")).toEqual({ oid: main, message: "Initial commit" });
      expect(await targetOf("... { abbreviatedOid }")).toEqual({ abbreviatedOid: main.slice(0, 7) });
      expect(await o.graphql(`{ ... on Query { repository(owner: "acme", name: "app") { ... on Repository { id } } } }`)).toEqual({ repository: { id: expect.any(String) as unknown } });
    });

    test("an unknown field inside a fragment is an error, also on an empty page; fragments by name are refused", async () => {
      const unknown = await graphqlFailure(o.graphql(target("oid ... on Commit { mesage }")));
      expect(unknown.errors[0]?.message).toMatch(/^Field 'mesage' doesn't exist on type 'Commit'/);
      const empty = await graphqlFailure(o.graphql(`{ repository(owner: "acme", name: "app") { issues(first: 5) { nodes { number ... on Issue { titel } } } } }`));
      expect(empty.errors[0]?.message).toMatch(/^Field 'titel' doesn't exist on type 'Issue'/);
      const impossible = await graphqlFailure(o.graphql(target("... on Issue { number }")));
      expect(impossible.errors[0]?.message).toMatch(/^Fragment on Issue can't be spread inside Commit/);
      const named = await graphqlFailure(o.graphql(`query { repository(owner: "acme", name: "app") { ...Repo } } fragment Repo on Repository { id }`));
      expect(named.errors[0]?.message).toMatch(/does not support fragments by name \("\.\.\.Repo"\)/);
      const directive = await graphqlFailure(o.graphql(target("... on Commit @include(if: true) { message }")));
      expect(directive.errors[0]?.message).toMatch(/does not support directives/);
    });
  });
});
