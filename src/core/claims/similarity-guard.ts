/** How a claim namespace behaves (DESIGN.md, "Claims"): artifact namespaces make one thing once, into a folder. */
export interface ClaimNamespace {
  readonly once_ever?: boolean | undefined;
  readonly artifact_dir?: string | undefined;
}

export const SIMILARITY = { minSharedTokens: 3, minContainment: 0.8 } as const;

/** Splits `namespace:slug` into its namespace and the slug's distinct lower-case tokens. */
export function tokenizeClaimKey(key: string): { namespace: string; tokens: ReadonlySet<string> } {
  const colon = key.indexOf(":");
  const namespace = colon < 0 ? "" : key.slice(0, colon).toLowerCase();
  const slug = colon < 0 ? key : key.slice(colon + 1);
  return { namespace, tokens: new Set(slug.toLowerCase().split(/[^a-z0-9]+/).filter((t) => t.length > 0)) };
}

/** Whether a key has enough tokens to be too similar to anything (a slug of 1–2 tokens never is). */
export function canBeSimilar(key: string | ReturnType<typeof tokenizeClaimKey>): boolean {
  return (typeof key === "string" ? tokenizeClaimKey(key) : key).tokens.size >= SIMILARITY.minSharedTokens;
}

const isArtifact = (ns: ClaimNamespace | undefined): boolean => ns?.once_ever === true && ns.artifact_dir !== undefined && ns.artifact_dir !== "";

/**
 * The first of `others` that `key` is too similar to: they share at least 3 tokens and the
 * shorter key's tokens are at least 80% inside the longer's. Keys in two *artifact* namespaces
 * never gate each other; work namespaces gate each other across namespaces too.
 */
export function findSimilarKey(
  key: string,
  others: Iterable<string>,
  namespaces: Readonly<Record<string, ClaimNamespace>> = {},
): { readonly key: string; readonly shared: readonly string[] } | undefined {
  const mine = tokenizeClaimKey(key);
  // Fewer tokens than must be shared: no key can be too similar, so none needs reading.
  if (!canBeSimilar(mine)) return undefined;
  for (const other of others) {
    if (other === key) continue;
    const theirs = tokenizeClaimKey(other);
    if (mine.namespace !== theirs.namespace && isArtifact(namespaces[mine.namespace]) && isArtifact(namespaces[theirs.namespace])) continue;
    const shared = [...mine.tokens].filter((t) => theirs.tokens.has(t));
    if (shared.length < SIMILARITY.minSharedTokens) continue;
    const shorter = Math.min(mine.tokens.size, theirs.tokens.size);
    if (shared.length / shorter >= SIMILARITY.minContainment) return { key: other, shared };
  }
  return undefined;
}
