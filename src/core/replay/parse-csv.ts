/** One CSV record: its cells and the 1-based line it starts on. */
export interface CsvRow {
  readonly line: number;
  readonly cells: string[];
}

/**
 * Splits CSV text (RFC 4180: quoted cells, doubled quotes, CRLF, newlines inside quotes) into
 * rows, calling `onRow` for each so a million-row trace is never held twice. Blank lines are
 * skipped. Returns the number of lines read.
 */
export function parseCsv(text: string, onRow: (row: CsvRow) => void): number {
  let pos = 0;
  let line = 1;
  const n = text.length;
  while (pos < n) {
    const start = line;
    let end = text.indexOf("\n", pos);
    if (end < 0) end = n;
    let raw = text.slice(pos, end);
    // Fast path: most rows have no quotes at all, so a plain split is exact.
    if (raw.indexOf('"') < 0) {
      if (raw.endsWith("\r")) raw = raw.slice(0, -1);
      pos = end + 1;
      line++;
      if (raw.length > 0) onRow({ line: start, cells: raw.split(",") });
      continue;
    }
    const cells: string[] = [];
    let cell = "";
    let quoted = false;
    let i = pos;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (quoted) {
        if (c === 34) {
          if (text.charCodeAt(i + 1) === 34) {
            cell += '"';
            i++;
          } else quoted = false;
        } else {
          if (c === 10) line++;
          cell += text[i];
        }
      } else if (c === 34) quoted = true;
      else if (c === 44) {
        cells.push(cell);
        cell = "";
      } else if (c === 10) break;
      else if (c !== 13) cell += text[i];
    }
    cells.push(cell);
    pos = i + 1;
    line++;
    onRow({ line: start, cells });
  }
  return line - 1;
}
