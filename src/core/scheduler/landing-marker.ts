/**
 * Where the scheduler appends an item's landing to its snapshot comment. A snapshot carrying it has
 * been worked already: approving the item again freezes a new snapshot, and only that newer
 * snapshot proves the re-approval to the scheduler (labels alone can be stale).
 */
export const LANDING_MARKER = "<!-- bosun:landing -->";
