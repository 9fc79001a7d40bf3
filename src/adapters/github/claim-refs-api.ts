import type { Octokit } from "@octokit/rest";
import { commitSigner } from "../../core/claims/commit-signer.js";
import { statusOf } from "./status-of.js";

/** The git primitives the GitHub claim store stands on; declared here, by their one consumer. */
export interface ClaimRefsApi {
  /** The ref's commit, or undefined when it does not exist. Reads fresh, never from a cache. */
  getRef(ref: string): Promise<string | undefined>;
  /** Writes an empty-tree commit; answers its sha and who GitHub signed it for (the writer, when it is a bot writing through the API). */
  createCommit(message: string, parents: readonly string[]): Promise<{ readonly sha: string; readonly signedBy: string | undefined }>;
  /** A commit's message, and who GitHub signed it for (normalized login; undefined: not verifiably anyone's). */
  getCommit(sha: string): Promise<{ readonly message: string; readonly signedBy: string | undefined; readonly parents: readonly string[] }>;
  /**
   * Moves several refs at once, all or nothing (GraphQL `updateRefs`): each from the commit given
   * (undefined: must not exist yet) to `to` (undefined: delete it), fast-forward only. `applied`,
   * or `unknown` with what GitHub said (refused, or failed in a way that may have landed: read back).
   */
  updateRefs(updates: ReadonlyArray<{ ref: string; from: string | undefined; to: string | undefined }>): Promise<"applied" | { unknown: string }>;
  /**
   * Every ref under the prefix with its commit's message, in one GraphQL query per 100 refs: how a
   * process with an empty cache reads the claims without one request per commit.
   */
  listRefsWithMessages(prefix: string): Promise<ReadonlyArray<{ ref: string; sha: string; message: string; signedBy: string | undefined }>>;
  /** Every ref under the prefix with its commit; `undefined` when unchanged since the last call (a free 304). */
  listRefs(prefix: string): Promise<ReadonlyArray<{ ref: string; sha: string }> | undefined>;
}

/** Git's empty tree: claim commits carry data in their message only. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";


/** "Must not exist yet" as a `beforeOid`, "delete it" as an `afterOid`. */
const NO_OBJECT = "0000000000000000000000000000000000000000";

const REFS_WITH_MESSAGES = `query ($owner: String!, $name: String!, $prefix: String!, $after: String) {
  repository(owner: $owner, name: $name) {
    id
    refs(refPrefix: $prefix, first: 100, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes { name prefix target { oid ... on Commit { message signature { isValid } author { name email } committer { name email } } } }
    }
  }
}`;

interface GitActor {
  readonly name: string | null;
  readonly email: string | null;
}

const actor = (a: GitActor | null | undefined): { name: string; email: string } => ({ name: a?.name ?? "", email: a?.email ?? "" });

interface RefsPage {
  repository: {
    id?: string;
    refs: {
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
      nodes: Array<{ name: string; prefix: string; target: { oid: string; message?: string; signature?: { isValid: boolean } | null; author?: GitActor | null; committer?: GitActor | null } | null } | null>;
    } | null;
  } | null;
}

/** The schema preview GitHub lists `updateRefs` under. */
export const UPDATE_REFS_PREVIEW = "application/vnd.github.update-refs-preview+json";

const UPDATE_REFS = `mutation ($input: UpdateRefsInput!) { updateRefs(input: $input) { clientMutationId } }`;

/** The ClaimRefsApi over Octokit, for one repository. */
export function octokitClaimRefs(octokit: Octokit, owner: string, repo: string): ClaimRefsApi {
  /** One validator per prefix listed (claims, epoch floors): a 304 means "as last listed" for that prefix only. */
  const listEtags = new Map<string, string>();
  let repositoryId: string | undefined;
  return {
    async getRef(ref) {
      try {
        // A ref read must be fresh: a cached 304 body would hide a racing writer.
        const { data } = await octokit.rest.git.getRef({ owner, repo, ref: ref.replace(/^refs\//, ""), headers: { "cache-control": "no-cache" } });
        return data.object.sha;
      } catch (err) {
        if (statusOf(err) === 404) return undefined;
        throw err;
      }
    },
    async updateRefs(updates) {
      // The repository's node id never changes: one read per process.
      repositoryId ??= (await octokit.rest.repos.get({ owner, repo })).data.node_id;
      try {
        // GitHub lists `updateRefs` under its schema previews: the preview media type is sent with it.
        await octokit.graphql(UPDATE_REFS, { input: { repositoryId, refUpdates: updates.map((u) => ({ name: u.ref, beforeOid: u.from ?? NO_OBJECT, afterOid: u.to ?? NO_OBJECT, force: false })) }, headers: { accept: UPDATE_REFS_PREVIEW } });
        return "applied";
      } catch (err) {
        return { unknown: err instanceof Error ? err.message : String(err) };
      }
    },
    async listRefsWithMessages(prefix) {
      const out: Array<{ ref: string; sha: string; message: string; signedBy: string | undefined }> = [];
      let after: string | null = null;
      for (let page = 0; page < 100; page++) {
        const data: RefsPage = await octokit.graphql(REFS_WITH_MESSAGES, { owner, name: repo, prefix: prefix.endsWith("/") ? prefix : `${prefix}/`, after });
        // The node id `updateRefs` needs comes with it: no read of its own later.
        repositoryId ??= data.repository?.id;
        const refs = data.repository?.refs;
        for (const node of refs?.nodes ?? []) {
          const target = node?.target;
          // The record and its signature in one read: who wrote it is judged from the same answer.
          if (node !== null && node !== undefined && target?.message !== undefined) out.push({ ref: `${node.prefix}${node.name}`, sha: target.oid, message: target.message, signedBy: commitSigner({ verified: target.signature?.isValid === true, author: actor(target.author), committer: actor(target.committer) }) });
        }
        if (refs?.pageInfo.hasNextPage !== true) break;
        after = refs.pageInfo.endCursor;
      }
      return out;
    },
    async createCommit(message, parents) {
      const { data } = await octokit.rest.git.createCommit({ owner, repo, message, tree: EMPTY_TREE, parents: [...parents] });
      return { sha: data.sha, signedBy: commitSigner({ verified: data.verification?.verified === true, author: data.author, committer: data.committer }) };
    },
    async getCommit(sha) {
      const { data } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: sha });
      return { message: data.message, signedBy: commitSigner({ verified: data.verification?.verified === true, author: data.author, committer: data.committer }), parents: data.parents.map((p) => p.sha) };
    },
    async listRefs(prefix) {
      try {
        const listEtag = listEtags.get(prefix);
        const response = await octokit.rest.git.listMatchingRefs({ owner, repo, ref: prefix.replace(/^refs\//, ""), ...(listEtag === undefined ? {} : { headers: { "if-none-match": listEtag } }) });
        if (response.headers.etag !== undefined) listEtags.set(prefix, response.headers.etag);
        return response.data.map((r) => ({ ref: r.ref, sha: r.object.sha }));
      } catch (err) {
        if (statusOf(err) === 304) return undefined;
        throw err;
      }
    },
  };
}
