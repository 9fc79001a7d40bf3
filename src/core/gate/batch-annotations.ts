/** GitHub takes at most 50 annotations per check-run request; more go in follow-up updates. */
export const ANNOTATIONS_PER_REQUEST = 50;

/** Splits annotations into request-sized batches, in order. */
export function batchAnnotations<T>(annotations: readonly T[], size = ANNOTATIONS_PER_REQUEST): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < annotations.length; i += size) batches.push(annotations.slice(i, i + size));
  return batches;
}
