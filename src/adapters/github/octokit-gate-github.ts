import { createOctokit } from "./create-octokit.js";
import type { CheckRunWriter, GateReader } from "../../ports/gate-github.js";
import type { RepoReader, SeparationReader, StatusWriter } from "../../ports/separation-github.js";
import type { ChangedFile, FileStatus } from "../../core/gate/changed-file.js";
import type { PermissionAnswer } from "../../core/separation/separation-facts.js";
import { loginFromEmail, normalizeLogin } from "../../core/separation/identity.js";
import { parseClaimCommit, recordFor } from "../../core/claims/claim-record.js";

/** Where and as whom to talk to GitHub. */
export interface OctokitGateOptions {
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  /** GITHUB_API_URL on a runner; the fake GitHub's URL in tests. */
  readonly baseUrl: string;
  readonly fetch?: typeof globalThis.fetch;
}

/** Changes to one branch read before the record counts as too long to rule anyone out. */
const MAX_ACTIVITIES = 1000;

/** Every port of the gate and separation modes over one `@octokit/rest` client. */
export type GateGitHub = GateReader & CheckRunWriter & SeparationReader & RepoReader & StatusWriter;

/** Builds the Octokit adapter; every read paginates and every error propagates (modes fail closed). */
export function createOctokitGateGitHub(options: OctokitGateOptions): GateGitHub {
  const octokit = createOctokit({ auth: options.token, baseUrl: options.baseUrl, ...(options.fetch === undefined ? {} : { request: { fetch: options.fetch } }) });
  const where = { owner: options.owner, repo: options.repo };
  const user = (u: { login: string } | null | undefined) => u?.login ?? "ghost";
  return {
    async pull(number) {
      const { data } = await octokit.rest.pulls.get({ ...where, pull_number: number });
      return {
        number,
        headSha: data.head.sha,
        baseSha: data.base.sha,
        headRef: data.head.ref,
        ...(data.head.repo === null ? {} : { headRepo: data.head.repo.full_name }),
        fromFork: data.head.repo === null || data.head.repo.full_name.toLowerCase() !== data.base.repo.full_name.toLowerCase(),
        baseRef: data.base.ref,
        defaultBranch: data.base.repo.default_branch,
        author: user(data.user),
        authorIsBot: data.user?.type === "Bot",
        body: data.body,
        labels: data.labels.map((l) => l.name),
        additions: data.additions,
        deletions: data.deletions,
        changedFiles: data.changed_files,
        commitCount: data.commits,
      };
    },
    async files(number) {
      const rows = await octokit.paginate(octokit.rest.pulls.listFiles, { ...where, pull_number: number, per_page: 100 });
      return rows.map((f): ChangedFile => ({
        path: f.filename,
        ...(f.previous_filename === undefined ? {} : { previousPath: f.previous_filename }),
        status: f.status as FileStatus,
        additions: f.additions,
        deletions: f.deletions,
        ...(f.patch === undefined ? {} : { patch: f.patch }),
      }));
    },
    async issueComments(issue) {
      const rows = await octokit.paginate(octokit.rest.issues.listComments, { ...where, issue_number: issue, per_page: 100 });
      return rows.map((c) => ({ id: c.id, author: user(c.user), body: c.body ?? "", createdAt: c.created_at, updatedAt: c.updated_at }));
    },
    async fileAt(path, sha) {
      try {
        const { data } = await octokit.rest.repos.getContent({ ...where, path, ref: sha });
        if (Array.isArray(data) || data.type !== "file" || !("content" in data)) return undefined;
        return Buffer.from(data.content, "base64").toString("utf8");
      } catch (err) {
        if ((err as { status?: number }).status === 404) return undefined;
        throw err;
      }
    },
    async workflowRun(id) {
      try {
        const { data } = await octokit.rest.actions.getWorkflowRun({ ...where, run_id: id });
        return { path: data.path, event: data.event, headSha: data.head_sha, ...(data.head_branch === null ? {} : { headBranch: data.head_branch }), ...(data.head_repository?.full_name === undefined ? {} : { headRepo: data.head_repository.full_name }) };
      } catch (err) {
        if ((err as { status?: number }).status === 404) return undefined;
        throw err;
      }
    },
    async pullsFromHead(owner, branch, limit) {
      // Pulls list "head: Filter pulls by head user or head organization and branch name in the
      // format of user:ref-name" with state=all: closed ones too (https://docs.github.com/en/rest/pulls/pulls#list-pull-requests).
      const rows: { number: number; baseRef: string; state: string }[] = [];
      for await (const { data } of octokit.paginate.iterator(octokit.rest.pulls.list, { ...where, state: "all", head: `${owner}:${branch}`, per_page: 100 })) {
        rows.push(...data.map((p) => ({ number: p.number, baseRef: p.base.ref, state: p.state })));
        if (rows.length > limit) break;
      }
      return rows;
    },
    async baseChanges(number) {
      // `base_ref_changed`: "The base reference branch of the pull request changed"
      // (https://docs.github.com/en/rest/using-the-rest-api/issue-event-types#base_ref_changed).
      const rows = await octokit.paginate(octokit.rest.issues.listEvents, { ...where, issue_number: number, per_page: 100 });
      return rows.filter((e) => e.event === "base_ref_changed").map((e) => e.created_at);
    },
    async claimRecord(ref) {
      // Octokit 22 URL-encodes `{ref}`; the API takes the name without `refs/`.
      let sha: string;
      try {
        const { data } = await octokit.rest.git.getRef({ ...where, ref: ref.replace(/^refs\//, "") });
        sha = data.object.sha;
      } catch (err) {
        if ((err as { status?: number }).status === 404) return undefined;
        throw err;
      }
      const { data: commit } = await octokit.rest.git.getCommit({ ...where, commit_sha: sha });
      const record = recordFor(parseClaimCommit(commit.message), ref);
      // A ref that exists but holds no claim Bosun can read is not a record of dispatch.
      if (record === undefined) throw new Error(`${ref} points at ${sha.slice(0, 12)}, which is not a claim commit Bosun can read`);
      // GitHub verifies a signature against the COMMITTER's keys (a user's own key signs a commit
      // whose committer is that user), and signs an App's API commit with both author and committer
      // the App. So the record is the bot's only when verified and the author is the committer: the
      // signer is then the committer. Anyone with contents:write can write this ref.
      const who = (p: { email: string; name: string }) => loginFromEmail(p.email) ?? normalizeLogin(p.name);
      const signedBy = commit.verification?.verified === true && who(commit.author) === who(commit.committer) ? who(commit.committer) : undefined;
      return { ref, sha, signedBy, key: record.key, state: record.state, epoch: record.epoch, ...(record.briefHash === undefined ? {} : { briefHash: record.briefHash }) };
    },
    async createCheckRun(input) {
      const { data } = await octokit.rest.checks.create({
        ...where,
        name: input.name,
        head_sha: input.headSha,
        status: "completed",
        conclusion: input.conclusion,
        ...(input.detailsUrl === undefined ? {} : { details_url: input.detailsUrl }),
        output: { title: input.title, summary: input.summary, annotations: [...input.annotations] },
      });
      return data.id;
    },
    async addAnnotations(id, input) {
      await octokit.rest.checks.update({ ...where, check_run_id: id, output: { title: input.title, summary: input.summary, annotations: [...input.annotations] } });
    },
    async commits(number) {
      const rows = await octokit.paginate(octokit.rest.pulls.listCommits, { ...where, pull_number: number, per_page: 100 });
      return rows.map((c) => ({
        sha: c.sha,
        author: { login: c.author?.login ?? null, email: c.commit.author?.email ?? null, name: c.commit.author?.name ?? null },
        committer: { login: c.committer?.login ?? null, email: c.commit.committer?.email ?? null, name: c.commit.committer?.name ?? null },
        message: c.commit.message,
      }));
    },
    async reviews(number) {
      const rows = await octokit.paginate(octokit.rest.pulls.listReviews, { ...where, pull_number: number, per_page: 100 });
      return rows.map((r) => ({ login: user(r.user), isBot: r.user?.type === "Bot", state: r.state as "APPROVED", commitId: r.commit_id ?? "", at: r.submitted_at ?? "", association: r.author_association }));
    },
    async pushes(repo, branch) {
      // "List repository activities": pushes, force pushes, branch creations and deletions with their
      // actor (https://docs.github.com/en/rest/repos/repos#list-repository-activities), paged by
      // cursor through the Link header. Read in the head's own repository (a fork's for a fork's PR).
      const [owner = "", name = ""] = repo.split("/");
      const activities: { type: string; actor: string | null; after: string; at: string }[] = [];
      let complete = true;
      for await (const { data } of octokit.paginate.iterator(octokit.rest.repos.listActivities, { owner, repo: name, ref: `refs/heads/${branch}`, per_page: 100 })) {
        activities.push(...data.map((a) => ({ type: a.activity_type, actor: a.actor?.login ?? null, after: a.after, at: a.timestamp })));
        if (activities.length >= MAX_ACTIVITIES) {
          complete = false;
          break;
        }
      }
      return { branch, activities, complete };
    },
    async comments(number) {
      const rows = await octokit.paginate(octokit.rest.issues.listComments, { ...where, issue_number: number, per_page: 100 });
      return rows.map((c) => ({ login: user(c.user), body: c.body ?? "", at: c.created_at, updatedAt: c.updated_at, association: c.author_association }));
    },
    async permission(login) {
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...where, username: login });
        const role = (data as { role_name?: string }).role_name;
        return (role === "maintain" ? "maintain" : data.permission) as PermissionAnswer;
      } catch (err) {
        // 404: not a collaborator at all. Anything else is unknown, and unknown never counts.
        return (err as { status?: number }).status === 404 ? "none" : "error";
      }
    },
    async openPulls() {
      const rows = await octokit.paginate(octokit.rest.pulls.list, { ...where, state: "open", per_page: 100 });
      return rows.map((p) => ({ number: p.number, headSha: p.head.sha, baseRef: p.base.ref }));
    },
    async issueAuthor(issue) {
      try {
        const { data } = await octokit.rest.issues.get({ ...where, issue_number: issue });
        return user(data.user);
      } catch (err) {
        if ((err as { status?: number }).status === 404) return undefined;
        throw err;
      }
    },
    async issueLabelers(issue, label) {
      const rows = await octokit.paginate(octokit.rest.issues.listEvents, { ...where, issue_number: issue, per_page: 100 });
      const wanted = label.toLowerCase();
      return [...new Set(rows.filter((e) => e.event === "labeled" && "label" in e && e.label?.name?.toLowerCase() === wanted).map((e) => user(e.actor)))];
    },
    async setStatus(sha, status) {
      await octokit.rest.repos.createCommitStatus({ ...where, sha, state: status.state, context: status.context, description: status.description, ...(status.targetUrl === undefined ? {} : { target_url: status.targetUrl }) });
    },
  };
}
