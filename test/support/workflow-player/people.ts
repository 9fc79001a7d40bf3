/**
 * The people of a repository, each with their own token and client: a maintainer (maintain: the approval role), a triager
 * (triage), a reviewer (write), an agent account (write: it pushes branches, as the trust docs
 * assume), a deployer (write) and the owner (admin). Their helpers act through the fake's API only,
 * so every act is recorded by the fake as theirs and sends the webhooks GitHub would send.
 */
import type { Octokit } from "@octokit/rest";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import type { Permission } from "../../fake-github/state.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";

export interface Person {
  readonly login: string;
  readonly octokit: Octokit;
  /** Opens an issue (a brief filed through the issue form is its rendered body). */
  openIssue(title: string, body: string): Promise<number>;
  label(issue: number, ...labels: string[]): Promise<void>;
  unlabel(issue: number, label: string): Promise<void>;
  comment(issue: number, body: string): Promise<void>;
  /** An approving review of the pull request's current head. */
  approve(pull: number, body?: string): Promise<void>;
  /** Merges the pull request at its current head; answers the merge commit, or the refusal `405 <message>`. */
  merge(pull: number): Promise<{ ok: true; sha: string } | { ok: false; status: number; message: string }>;
  /**
   * A deployment of `sha` to `environment`, then its statuses in_progress and success pointing at
   * `url`. Made of the default branch (`ref: main`) when it is at `sha`, as a deploy workflow on a
   * push does: GitHub runs a deployment_status workflow with GITHUB_REF empty when the deployment
   * was made of a bare sha, and an environment limited to protected branches then refuses it.
   */
  deploy(sha: string, environment: string, url: string): Promise<number>;
}

export interface People {
  readonly maintainer: Person;
  readonly triager: Person;
  readonly reviewer: Person;
  readonly agent: Person;
  readonly deployer: Person;
  readonly owner: Person;
}

const ROLES: Record<keyof People, { login: string; permission: Permission | "owner" }> = {
  maintainer: { login: "mona", permission: "maintain" },
  triager: { login: "tia", permission: "triage" },
  reviewer: { login: "rex", permission: "write" },
  agent: { login: "agent-smith", permission: "write" },
  deployer: { login: "dana", permission: "write" },
  owner: { login: "", permission: "owner" },
};

function person(fake: FakeGitHub, fullName: string, login: string): Person {
  const token = `t-person-${login}`;
  const octokit = createTestOctokit(fake.url, token);
  const [owner = "", repo = ""] = fullName.split("/");
  const at = { owner, repo };
  return {
    login,
    octokit,
    async openIssue(title, body) {
      return (await octokit.issues.create({ ...at, title, body })).data.number;
    },
    async label(issue, ...labels) {
      await octokit.issues.addLabels({ ...at, issue_number: issue, labels });
    },
    async unlabel(issue, label) {
      await octokit.issues.removeLabel({ ...at, issue_number: issue, name: label });
    },
    async comment(issue, body) {
      await octokit.issues.createComment({ ...at, issue_number: issue, body });
    },
    async approve(pull, body = "") {
      const { data } = await octokit.pulls.get({ ...at, pull_number: pull });
      await octokit.pulls.createReview({ ...at, pull_number: pull, event: "APPROVE", commit_id: data.head.sha, body });
    },
    async merge(pull) {
      const { data } = await octokit.pulls.get({ ...at, pull_number: pull });
      try {
        const merged = await octokit.pulls.merge({ ...at, pull_number: pull, sha: data.head.sha });
        return { ok: true, sha: merged.data.sha };
      } catch (err) {
        const e = err as { status?: number; response?: { data?: { message?: string } } };
        return { ok: false, status: e.status ?? 0, message: e.response?.data?.message ?? String(err) };
      }
    },
    async deploy(sha, environment, url) {
      const main = (await octokit.repos.get(at)).data.default_branch;
      const tip = (await octokit.git.getRef({ ...at, ref: `heads/${main}` })).data.object.sha;
      const { data } = await octokit.repos.createDeployment({ ...at, ref: tip === sha ? main : sha, environment, auto_merge: false, required_contexts: [] });
      const id = (data as { id: number }).id;
      await octokit.repos.createDeploymentStatus({ ...at, deployment_id: id, state: "in_progress" });
      await octokit.repos.createDeploymentStatus({ ...at, deployment_id: id, state: "success", environment_url: url });
      return id;
    },
  };
}

/** Registers each role's token and permission on `fullName` and answers their helpers. */
export function createPeople(fake: FakeGitHub, fullName: string): People {
  const owner = fullName.split("/")[0] ?? "";
  const out: Partial<Record<keyof People, Person>> = {};
  for (const [role, { login, permission }] of Object.entries(ROLES) as Array<[keyof People, (typeof ROLES)[keyof People]]>) {
    const name = permission === "owner" ? owner : login;
    fake.addToken(`t-person-${name}`, name, permission === "owner" ? {} : { permissions: { [fullName]: permission } });
    out[role] = person(fake, fullName, name);
  }
  return out as People;
}
