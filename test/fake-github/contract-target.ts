/**
 * Where a contract suite runs: the fake always, and a real sandbox repository when
 * `BOSUN_SANDBOX_TOKEN` and `BOSUN_SANDBOX_REPO` (`owner/name`) are set. The suites only use the
 * API (no seeding), so both targets run the same assertions.
 */
import type { Octokit } from "@octokit/rest";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { createTestOctokit } from "./test-octokit.js";

export interface ContractTarget {
  name: "fake" | "sandbox";
  owner: string;
  repo: string;
  /** A client with write access. */
  writer(): Octokit;
  /** The fake, when this target is the fake (for accounting assertions). */
  fake: FakeGitHub | undefined;
  /** A ref name unique to this run, e.g. `refs/bosun-contract/<run>/<label>`. */
  uniqueRef(label: string): string;
  close(): Promise<void>;
}

export interface SandboxConfig {
  token: string;
  owner: string;
  repo: string;
  baseUrl: string;
}

/** The sandbox configuration from the environment, or why there is none. */
export function readSandbox(env: Record<string, string | undefined>): SandboxConfig | { skip: string } {
  const token = env.BOSUN_SANDBOX_TOKEN;
  const full = env.BOSUN_SANDBOX_REPO;
  if (token === undefined || token === "" || full === undefined || !full.includes("/")) {
    return { skip: "BOSUN_SANDBOX_TOKEN and BOSUN_SANDBOX_REPO (owner/name) are not set: the contract suite runs against the fake only" };
  }
  const [owner = "", repo = ""] = full.split("/");
  return { token, owner, repo, baseUrl: env.BOSUN_SANDBOX_API_URL || "https://api.github.com" };
}

let runCounter = 0;

export async function fakeTarget(): Promise<ContractTarget> {
  const fake = await createFakeGitHub();
  fake.addRepo({ fullName: "acme/contract" });
  fake.addToken("contract-writer", "mona", { permissions: { "acme/contract": "write" } });
  const run = ++runCounter;
  return {
    name: "fake",
    owner: "acme",
    repo: "contract",
    writer: () => createTestOctokit(fake.url, "contract-writer"),
    fake,
    uniqueRef: (label) => `refs/bosun-contract/${run}/${label}`,
    close: () => fake.close(),
  };
}

export function sandboxTarget(config: SandboxConfig): ContractTarget {
  const run = `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
  const created: string[] = [];
  const writer = createTestOctokit(config.baseUrl, config.token);
  return {
    name: "sandbox",
    owner: config.owner,
    repo: config.repo,
    writer: () => createTestOctokit(config.baseUrl, config.token),
    fake: undefined,
    uniqueRef: (label) => {
      const ref = `refs/bosun-contract/${run}/${label}`;
      created.push(ref);
      return ref;
    },
    async close() {
      // Leave the sandbox as it was: delete every ref this run may have created.
      for (const ref of created) {
        await writer.git.deleteRef({ owner: config.owner, repo: config.repo, ref: ref.replace(/^refs\//, "") }).catch(() => undefined);
      }
    },
  };
}

/** The targets a contract suite runs on; prints once why the sandbox is skipped. */
export function contractTargets(env: Record<string, string | undefined>): Array<{ name: string; make: () => Promise<ContractTarget> }> {
  const sandbox = readSandbox(env);
  if ("skip" in sandbox) {
    process.stdout.write(`[fake-github contract] sandbox target skipped: ${sandbox.skip}\n`);
    return [{ name: "fake", make: fakeTarget }];
  }
  return [
    { name: "fake", make: fakeTarget },
    { name: "sandbox", make: async () => sandboxTarget(sandbox) },
  ];
}

/** A fresh commit on top of the default branch head (same tree), for refs to point at. */
export async function commitOnHead(octokit: Octokit, owner: string, repo: string, message: string, parent?: string): Promise<string> {
  const { data: repository } = await octokit.repos.get({ owner, repo });
  const { data: head } = await octokit.git.getRef({ owner, repo, ref: `heads/${repository.default_branch}` });
  const { data: base } = await octokit.git.getCommit({ owner, repo, commit_sha: head.object.sha });
  const { data: commit } = await octokit.git.createCommit({ owner, repo, message, tree: base.tree.sha, parents: [parent ?? head.object.sha] });
  return commit.sha;
}
