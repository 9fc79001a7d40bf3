/** GitHub's GraphQL `updateRefs` (atomic multi-ref update) and `repository { id }`, through the real Octokit's `graphql()`. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Octokit } from "@octokit/rest";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { NULL_OID } from "./apply-ref-updates.js";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { EMPTY_TREE } from "./git-objects.js";
import { createTestOctokit } from "./test-octokit.js";
import { graphqlFailure, type GraphqlFailure } from "./graphql-failure.js";

const repo = { owner: "acme", repo: "app" };
const UPDATE_REFS = "mutation($input: UpdateRefsInput!) { updateRefs(input: $input) { clientMutationId } }";
const REPOSITORY_ID = "query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { id } }";

interface RefUpdateInput {
  name: string;
  beforeOid?: string | null;
  afterOid: string;
  force?: boolean;
}

describe("POST /graphql: updateRefs and repository { id }", () => {
  let fake: FakeGitHub;
  let o: Octokit;
  let main: string;
  let repositoryId: string;
  beforeEach(async () => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: "acme/app" });
    fake.addRepo({ fullName: "acme/secret", private: true });
    fake.addToken("t-write", "mona", { permissions: { "acme/app": "write" } });
    fake.addToken("t-read", "reed", { permissions: { "acme/app": "read" } });
    fake.addToken("t-bot-read", "reader[bot]", { permissions: { "acme/app": "read" } });
    o = createTestOctokit(fake.url, "t-write");
    main = fake.repo("acme/app").refs.get("refs/heads/main") ?? "";
    repositoryId = (await o.graphql<{ repository: { id: string } }>(REPOSITORY_ID, { owner: "acme", name: "app" })).repository.id;
  });
  afterEach(async () => {
    await fake.close();
  });

  const updateRefs = (client: Octokit, refUpdates: RefUpdateInput[], clientMutationId?: string) =>
    client.graphql<{ updateRefs: { clientMutationId: string | null } }>(UPDATE_REFS, { input: { repositoryId, refUpdates, ...(clientMutationId === undefined ? {} : { clientMutationId }) } });
  /** A new commit on top of `parent`, made through REST as a client would. */
  const child = async (client: Octokit, parent: string, message: string) => (await client.git.createCommit({ ...repo, message, tree: EMPTY_TREE, parents: [parent] })).data.sha;
  const refs = () => fake.repo("acme/app").refs;

  test("repository { id } is the node_id GET /repos/{owner}/{repo} reports; an unknown or hidden repository is NOT_FOUND", async () => {
    const { data } = await o.repos.get(repo);
    expect(repositoryId).toBe(data.node_id);
    const aliased = await o.graphql<{ r: { id: string; __typename: string } }>("query Q($owner: String!, $name: String!) { r: repository(owner: $owner, name: $name) { id __typename } }", { owner: "acme", name: "app" });
    expect(aliased).toEqual({ r: { id: data.node_id, __typename: "Repository" } });
    for (const name of ["nope", "secret"]) {
      const failure = await graphqlFailure(o.graphql(REPOSITORY_ID, { owner: "acme", name }));
      expect(failure.data).toEqual({ repository: null });
      expect(failure.errors).toEqual([{ type: "NOT_FOUND", path: ["repository"], locations: [{ line: 1, column: REPOSITORY_ID.indexOf("repository(") + 1 }], message: `Could not resolve to a Repository with the name 'acme/${name}'.` }]);
    }
  });

  test("creates several refs atomically, echoes clientMutationId, and is accounted as POST /graphql, kind create", async () => {
    fake.accounting.reset();
    const names = ["refs/bosun/claims/1", "refs/bosun/claims/2", "refs/heads/topic"];
    const result = await updateRefs(o, names.map((name) => ({ name, beforeOid: NULL_OID, afterOid: main })), "m-1");
    expect(result).toEqual({ updateRefs: { clientMutationId: "m-1" } });
    for (const name of names) expect(refs().get(name)).toBe(main);
    expect((await o.git.getRef({ ...repo, ref: "bosun/claims/2" })).data.object.sha).toBe(main);
    expect(fake.accounting.log[0]).toMatchObject({ method: "POST", path: "/graphql", route: "POST /graphql", kind: "create", status: 200, login: "mona" });
    expect(fake.accounting.counters()).toMatchObject({ write: 1, contentCreating: 1, byEndpoint: { "POST /graphql": 1 } });
  });

  test("one stale beforeOid rejects the whole batch with HTTP 200 and GitHub's error shape; nothing changes", async () => {
    const moved = await child(o, main, "moved");
    await updateRefs(o, [{ name: "refs/bosun/claims/7", beforeOid: NULL_OID, afterOid: moved }]);
    const before = new Map(refs());
    const variables = {
      input: {
        repositoryId,
        refUpdates: [
          { name: "refs/bosun/claims/8", beforeOid: NULL_OID, afterOid: main },
          { name: "refs/bosun/claims/7", beforeOid: main, afterOid: main, force: true },
        ],
      },
    };
    const res = await fetch(`${fake.url}/graphql`, { method: "POST", headers: { authorization: "token t-write", "content-type": "application/json" }, body: JSON.stringify({ query: UPDATE_REFS, variables }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: { updateRefs: null },
      errors: [{ type: "UNPROCESSABLE", path: ["updateRefs"], locations: [{ line: 1, column: UPDATE_REFS.indexOf("updateRefs(") + 1 }], message: `No ref was updated: refs/bosun/claims/7: is at ${moved}, not at beforeOid ${main}` }],
    });
    const failure = await graphqlFailure(o.graphql(UPDATE_REFS, variables));
    expect(failure.errors[0]).toMatchObject({ type: "UNPROCESSABLE", path: ["updateRefs"] });
    expect(refs()).toEqual(before);
  });

  test("creating a ref that exists (beforeOid 000…) is refused", async () => {
    const failure = await graphqlFailure(updateRefs(o, [{ name: "refs/heads/main", beforeOid: NULL_OID, afterOid: main }]));
    expect(failure.errors[0]?.message).toBe(`No ref was updated: refs/heads/main: already exists at ${main}, but beforeOid ${NULL_OID} says it must not exist`);
  });

  test("a non-fast-forward is refused without force and applies with it; a fast-forward needs no force", async () => {
    const left = await child(o, main, "left");
    const right = await child(o, main, "right");
    await updateRefs(o, [{ name: "refs/bosun/claims/3", afterOid: left }]);
    const failure = await graphqlFailure(updateRefs(o, [{ name: "refs/bosun/claims/3", beforeOid: left, afterOid: right }]));
    expect(failure.errors[0]?.message).toBe(`No ref was updated: refs/bosun/claims/3: moving it from ${left} to ${right} is not a fast forward (force is false)`);
    expect(refs().get("refs/bosun/claims/3")).toBe(left);
    await updateRefs(o, [{ name: "refs/bosun/claims/3", beforeOid: left, afterOid: right, force: true }]);
    expect(refs().get("refs/bosun/claims/3")).toBe(right);
    const ahead = await child(o, right, "ahead");
    await updateRefs(o, [{ name: "refs/bosun/claims/3", beforeOid: right, afterOid: ahead }]);
    expect(refs().get("refs/bosun/claims/3")).toBe(ahead);
  });

  test("afterOid 000… deletes; deleting a missing ref, a bad name, a repeated name or a missing commit is refused", async () => {
    await updateRefs(o, [
      { name: "refs/bosun/claims/4", beforeOid: NULL_OID, afterOid: main },
      { name: "refs/bosun/claims/5", beforeOid: NULL_OID, afterOid: main },
    ]);
    await updateRefs(o, [
      { name: "refs/bosun/claims/4", beforeOid: main, afterOid: NULL_OID },
      { name: "refs/bosun/claims/5", afterOid: NULL_OID },
    ]);
    expect(refs().has("refs/bosun/claims/4") || refs().has("refs/bosun/claims/5")).toBe(false);
    await expect(o.git.getRef({ ...repo, ref: "bosun/claims/4" })).rejects.toMatchObject({ status: 404 });
    const refused: Array<[RefUpdateInput[], string]> = [
      [[{ name: "refs/bosun/claims/4", afterOid: NULL_OID }], "refs/bosun/claims/4: cannot be deleted, it does not exist"],
      [[{ name: "refs/claims", afterOid: main }], 'refs/claims: not a valid ref name (it must start with "refs/" and have at least two slashes)'],
      [[{ name: "heads/x", afterOid: main }], 'heads/x: not a valid ref name (it must start with "refs/" and have at least two slashes)'],
      [[{ name: "refs/bosun/x", afterOid: main }, { name: "refs/bosun/x", afterOid: main }], "refs/bosun/x: appears more than once"],
      [[{ name: "refs/bosun/y", afterOid: "f".repeat(40) }], `refs/bosun/y: afterOid ${"f".repeat(40)} is not a commit in this repository`],
    ];
    for (const [updates, message] of refused) {
      const failure = await graphqlFailure(updateRefs(o, updates));
      expect(failure.errors).toMatchObject([{ type: "UNPROCESSABLE", message: `No ref was updated: ${message}` }]);
    }
    expect([...refs().keys()].filter((r) => r.startsWith("refs/bosun/"))).toEqual([]);
  });

  test("read access is FORBIDDEN as on GitHub; an unknown or hidden repository id is NOT_FOUND; no token is 401", async () => {
    const update = [{ name: "refs/bosun/claims/9", beforeOid: NULL_OID, afterOid: main }];
    const bot = await graphqlFailure(updateRefs(createTestOctokit(fake.url, "t-bot-read"), update));
    expect(bot.data).toEqual({ updateRefs: null });
    expect(bot.errors).toMatchObject([{ type: "FORBIDDEN", path: ["updateRefs"], message: "Resource not accessible by integration" }]);
    const user = await graphqlFailure(updateRefs(createTestOctokit(fake.url, "t-read"), update));
    expect(user.errors).toMatchObject([{ type: "FORBIDDEN", message: "Resource not accessible by personal access token" }]);
    const secretId = Buffer.from(`Repository:${fake.repo("acme/secret").id}`).toString("base64").replace(/=+$/, "");
    for (const id of ["R_nope", secretId]) {
      const failure = await graphqlFailure(o.graphql(UPDATE_REFS, { input: { repositoryId: id, refUpdates: update } }));
      expect(failure.errors).toMatchObject([{ type: "NOT_FOUND", path: ["updateRefs"], message: `Could not resolve to a node with the global id of '${id}'` }]);
    }
    await expect(updateRefs(createTestOctokit(fake.url, undefined), update)).rejects.toMatchObject({ status: 401 });
    expect(refs().has("refs/bosun/claims/9")).toBe(false);
  });

  test("anything but the two served operations is an error, never a silent success, and applies nothing", async () => {
    const input = { repositoryId, refUpdates: [{ name: "refs/bosun/claims/10", afterOid: main }] };
    const documents: Array<[string, Record<string, unknown>, RegExp]> = [
      ["query { viewer { login } }", {}, /Field 'viewer' doesn't exist on type 'Query'/],
      ["mutation($input: CreateRefInput!) { createRef(input: $input) { ref { name } } }", { input: {} }, /Field 'createRef' doesn't exist on type 'Mutation'/],
      ["query($input: UpdateRefsInput!) { updateRefs(input: $input) { clientMutationId } }", { input }, /Field 'updateRefs' doesn't exist on type 'Query'/],
      ["mutation($input: UpdateRefsInput!) { updateRefs(input: $input) { ref { name } } }", { input }, /Field 'ref' doesn't exist on type 'UpdateRefsPayload'/],
      ["mutation($input: UpdateRefsInput!) { updateRefs(input: $input) { clientMutationId } x: updateRefs(input: $input) { clientMutationId } }", { input }, /exactly one root field/],
      ["mutation { updateRefs(input: $input) { clientMutationId } }", { input }, /Variable \$input is used but not declared/],
      ["mutation($input: UpdateRefsInput!) { updateRefs(input: $input) { clientMutationId } }", {}, /Variable \$input of type UpdateRefsInput! was provided invalid value/],
      ["mutation($input: UpdateRefsInput!) { updateRefs(input: $input) { clientMutationId } }", { input: { ...input, refUpdates: [{ name: "refs/bosun/z", afterOid: "main" }] } }, /invalid value for refUpdates\.0\.afterOid/],
      ["mutation($input: UpdateRefsInput!) { updateRefs(input: $input) { ...F } } fragment F on UpdateRefsPayload { clientMutationId }", { input }, /does not support fragments/],
      ["mutation($input: UpdateRefsInput!) { updateRefs(input: $input) { clientMutationId }", { input }, /Parse error on end of string/],
    ];
    for (const [query, variables, message] of documents) {
      const failure = await graphqlFailure(o.graphql(query, variables));
      expect(failure.errors[0]?.message).toMatch(message);
    }
    const res = await fetch(`${fake.url}/graphql`, { method: "POST", headers: { authorization: "token t-write" }, body: JSON.stringify({ variables: {} }) });
    expect([res.status, await res.json()]).toEqual([200, { errors: [{ message: "A query attribute must be specified and must be a string." }] }]);
    expect(refs().has("refs/bosun/claims/10")).toBe(false);
  });

  test("sends the create, push and delete webhooks the REST ref routes send", async () => {
    const received: string[] = [];
    const server: Server = createServer((req, res) => {
      received.push(String(req.headers["x-github-event"]));
      req.resume().on("end", () => res.writeHead(202).end());
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      fake.webhooks.register({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, secret: "s", events: ["create", "push", "delete"] });
      const next = await child(o, main, "next");
      await updateRefs(o, [
        { name: "refs/heads/feature", beforeOid: NULL_OID, afterOid: main },
        { name: "refs/heads/main", beforeOid: main, afterOid: next },
      ]);
      await updateRefs(o, [{ name: "refs/heads/feature", beforeOid: main, afterOid: NULL_OID }]);
      await fake.webhooks.flush();
      expect(fake.webhooks.deliveries.map((d) => [d.event, d.payload.ref])).toEqual([
        ["create", "feature"],
        ["push", "refs/heads/main"],
        ["delete", "feature"],
      ]);
      expect(fake.webhooks.deliveries[1]?.payload).toMatchObject({ before: main, after: next, forced: false });
      expect(received).toEqual(["create", "push", "delete"]);
    } finally {
      server.close();
    }
  });

  test("faults apply to POST /graphql, and a stale read can follow its write", async () => {
    fake.faults.add({ kind: "error", status: 502, route: "POST /graphql", times: 1 });
    await expect(updateRefs(o, [{ name: "refs/bosun/claims/11", beforeOid: NULL_OID, afterOid: main }])).rejects.toMatchObject({ status: 502 });
    expect(refs().has("refs/bosun/claims/11")).toBe(false);
    fake.faults.add({ kind: "stale-read", requests: 1, route: "GET /repos/{owner}/{repo}/git/ref/{ref}" });
    await updateRefs(o, [{ name: "refs/bosun/claims/11", beforeOid: NULL_OID, afterOid: main }]);
    await expect(o.git.getRef({ ...repo, ref: "bosun/claims/11" })).rejects.toMatchObject({ status: 404 });
    expect((await o.git.getRef({ ...repo, ref: "bosun/claims/11" })).data.object.sha).toBe(main);
    expect(fake.accounting.log.slice(-4).map((e) => [e.route, e.status, e.fault])).toEqual([
      ["POST /graphql", 502, "error"],
      ["POST /graphql", 200, null],
      ["GET /repos/{owner}/{repo}/git/ref/{ref}", 404, "stale-read"],
      ["GET /repos/{owner}/{repo}/git/ref/{ref}", 200, null],
    ]);
  });

  test("8 clients racing batches on one ref: exactly one wins each round, and the losers change nothing", async () => {
    const clients = Array.from({ length: 8 }, () => createTestOctokit(fake.url, "t-write"));
    // Random real latency so the batches arrive in a different order each round.
    fake.faults.add({ kind: "latency", ms: [0, 4], route: "POST /graphql" });
    const lock = "refs/bosun/race/lock";
    let head = main;
    await updateRefs(o, [{ name: lock, beforeOid: NULL_OID, afterOid: head }]);
    const winners: number[] = [];
    for (let round = 0; round < 6; round++) {
      const commits = await Promise.all(clients.map((c, i) => child(c, head, `round ${round}, client ${i}`)));
      const results = await Promise.allSettled(
        clients.map((c, i) =>
          updateRefs(c, [
            { name: lock, beforeOid: head, afterOid: commits[i] as string },
            { name: `refs/bosun/race/${round}/${i}`, beforeOid: NULL_OID, afterOid: commits[i] as string },
          ]),
        ),
      );
      const won = results.flatMap((r, i) => (r.status === "fulfilled" ? [i] : []));
      expect(won).toHaveLength(1);
      const winner = won[0] as number;
      for (const r of results) {
        if (r.status === "rejected") expect((r.reason as GraphqlFailure).errors).toMatchObject([{ type: "UNPROCESSABLE", path: ["updateRefs"] }]);
      }
      expect(refs().get(lock)).toBe(commits[winner]);
      expect([...refs().keys()].filter((r) => r.startsWith(`refs/bosun/race/${round}/`))).toEqual([`refs/bosun/race/${round}/${winner}`]);
      head = commits[winner] as string;
      winners.push(winner);
    }
    expect(winners).toHaveLength(6);
  });
});
