/**
 * The paths a `push` webhook says its commits touched, or undefined when it cannot say: no commit
 * list (GitHub lists at most 2048, and a forced push can drop commits the list never shows), or a
 * commit without its file lists. GitHub's payload: `commits[].added`, `removed`, `modified`
 * (https://docs.github.com/en/webhooks/webhook-events-and-payloads#push).
 */
export const PUSH_COMMITS_MOST = 2048;

interface PushPayload {
  readonly forced?: boolean;
  readonly commits?: ReadonlyArray<{ readonly added?: readonly string[]; readonly removed?: readonly string[]; readonly modified?: readonly string[] }>;
}

export function pushedPaths(payload: PushPayload): string[] | undefined {
  const commits = payload.commits;
  if (payload.forced === true || commits === undefined || commits.length === 0 || commits.length >= PUSH_COMMITS_MOST) return undefined;
  const paths = new Set<string>();
  for (const c of commits) {
    if (c.added === undefined || c.removed === undefined || c.modified === undefined) return undefined;
    for (const p of [...c.added, ...c.removed, ...c.modified]) paths.add(p);
  }
  return [...paths];
}
