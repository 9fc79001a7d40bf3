/** A repository by owner and name, as every REST route takes it. */
export interface RepoRef {
  readonly owner: string;
  readonly repo: string;
}

/** `owner/name`, lower-cased: the key of every per-repository cache. */
export function repoKey(ref: RepoRef): string {
  return `${ref.owner}/${ref.repo}`.toLowerCase();
}
