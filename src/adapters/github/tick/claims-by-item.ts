/**
 * The claim refs of a listing by the item (issue number) each is for: refs under the prefix whose
 * last part is a positive whole number (the generation ref and anything else there are left out).
 */
export function claimsByItem<C extends { readonly ref: string }>(claims: readonly C[], prefix: string): Map<number, C> {
  const out = new Map<number, C>();
  for (const c of claims) {
    const n = Number(c.ref.slice(prefix.length));
    if (c.ref.startsWith(prefix) && Number.isInteger(n) && n > 0) out.set(n, c);
  }
  return out;
}
