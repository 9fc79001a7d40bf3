/**
 * One file's change as GitHub's `patch` field shows it: unified hunks with three lines of context and
 * no file header, plus the added and deleted line counts (a longest-common-subsequence diff).
 */

export interface FilePatch {
  patch: string;
  additions: number;
  deletions: number;
}

const CONTEXT = 3;
/** Past this many lines on both sides the diff is "all removed, all added" (a test fake, not git). */
const MAX_CELLS = 4_000_000;

function splitLines(text: string): { lines: string[]; endsWithNewline: boolean } {
  if (text === "") return { lines: [], endsWithNewline: true };
  const endsWithNewline = text.endsWith("\n");
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split("\n");
  return { lines, endsWithNewline };
}

type Op = { kind: " " | "-" | "+"; line: string; oldNo: number; newNo: number };

function diffOps(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) {
    return [...a.map((line, i) => ({ kind: "-" as const, line, oldNo: i, newNo: 0 })), ...b.map((line, j) => ({ kind: "+" as const, line, oldNo: n, newNo: j }))];
  }
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ kind: " ", line: a[i++]!, oldNo: i - 1, newNo: j++ });
    // Deletions before additions, as git prints a changed line.
    else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ kind: "-", line: a[i++]!, oldNo: i - 1, newNo: j });
    else ops.push({ kind: "+", line: b[j++]!, oldNo: i, newNo: j - 1 });
  }
  return ops;
}

/** The patch from `before` to `after` (either may be "" for an added or removed file). */
export function unifiedPatch(before: string, after: string): FilePatch {
  const a = splitLines(before);
  const b = splitLines(after);
  // A change of the last line's newline alone is a change of that line, as git shows it.
  const aLines = a.lines.map((l, i) => (i === a.lines.length - 1 && !a.endsWithNewline ? `${l}\u0000` : l));
  const bLines = b.lines.map((l, i) => (i === b.lines.length - 1 && !b.endsWithNewline ? `${l}\u0000` : l));
  const ops = diffOps(aLines, bLines);
  const changed = ops.map((op, k) => (op.kind === " " ? -1 : k)).filter((k) => k >= 0);
  if (changed.length === 0) return { patch: "", additions: 0, deletions: 0 };
  // Group changes whose context windows touch into hunks.
  const hunks: Array<[number, number]> = [];
  for (const k of changed) {
    const last = hunks.at(-1);
    if (last !== undefined && k - last[1] <= 2 * CONTEXT + 1) last[1] = k;
    else hunks.push([k, k]);
  }
  const out: string[] = [];
  for (const [first, last] of hunks) {
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(ops.length - 1, last + CONTEXT);
    const slice = ops.slice(from, to + 1);
    const oldCount = slice.filter((o) => o.kind !== "+").length;
    const newCount = slice.filter((o) => o.kind !== "-").length;
    const oldStart = oldCount === 0 ? slice[0]!.oldNo : slice.find((o) => o.kind !== "+")!.oldNo + 1;
    const newStart = newCount === 0 ? slice[0]!.newNo : slice.find((o) => o.kind !== "-")!.newNo + 1;
    out.push(`@@ -${oldStart}${oldCount === 1 ? "" : `,${oldCount}`} +${newStart}${newCount === 1 ? "" : `,${newCount}`} @@`);
    for (const op of slice) {
      const bare = op.line.endsWith("\u0000");
      out.push(`${op.kind}${bare ? op.line.slice(0, -1) : op.line}`);
      if (bare) out.push("\\ No newline at end of file");
    }
  }
  return { patch: out.join("\n"), additions: ops.filter((o) => o.kind === "+").length, deletions: ops.filter((o) => o.kind === "-").length };
}
