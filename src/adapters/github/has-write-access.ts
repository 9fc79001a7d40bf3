import type { Octokit } from "@octokit/rest";
import { statusOf } from "./status-of.js";

/**
 * Whether `login` has write, maintain or admin on the repository, asked of GitHub (never taken
 * from `author_association`). Not a collaborator (404) is no; any other failure is thrown.
 */
export async function hasWriteAccess(octokit: Pick<Octokit, "rest">, owner: string, repo: string, login: string): Promise<boolean> {
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: login });
    // `permission` is the legacy level, where maintain (and any custom role built on write) reads as write.
    return data.permission === "admin" || data.permission === "write";
  } catch (error) {
    if (statusOf(error) === 404) return false;
    throw error;
  }
}
