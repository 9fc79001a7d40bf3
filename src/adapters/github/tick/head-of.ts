/**
 * The head of a pull request from two views: the run's payload (as of the run's end; a delivery can
 * come late) and this process's listing (as of the pull request's last update). Where they differ,
 * the later one; where that cannot be told (the same second, or no time), none.
 */
export function headOf(listed: string | undefined, known: { readonly sha: string; readonly updatedAt: string } | undefined, completedAt: string | null | undefined): string | undefined {
  if (listed === undefined || known === undefined || listed === known.sha) return listed ?? known?.sha;
  const ended = Date.parse(completedAt ?? "");
  const updated = Date.parse(known.updatedAt);
  if (!Number.isFinite(ended) || !Number.isFinite(updated) || ended === updated) return undefined;
  return updated > ended ? known.sha : listed;
}
