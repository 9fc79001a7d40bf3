/** One CSV record: its cells and the 1-based line it starts on. */
export interface CsvRow {
  readonly line: number;
  readonly cells: string[];
}

/** A record that is not valid CSV, skipped: where it starts and what is wrong. */
export interface CsvMalformed {
  readonly line: number;
  readonly message: string;
}

/**
 * Splits CSV text (RFC 4180: quoted cells, doubled quotes, CRLF, newlines inside quotes) into
 * rows, calling `onRow` for each so a million-row trace is never held twice. Blank lines are
 * skipped. Returns the number of lines read.
 *
 * A malformed record — a quote inside an unquoted cell, a closing quote followed by anything but
 * a comma or the end of the line, a quote never closed — is reported to `onMalformed` and costs
 * only its own first line: parsing resumes on the next line. Before, one unbalanced quote read
 * the rest of the file as a single cell (1,000 rows became 0 items and one vague problem).
 */
export function parseCsv(text: string, onRow: (row: CsvRow) => void, onMalformed: (bad: CsvMalformed) => void = () => undefined): number {
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
    const record = readQuotedRecord(text, pos);
    if (!record.ok) {
      onMalformed({ line: start, message: record.problem });
      // Skip this line only; the next line starts afresh.
      pos = end + 1;
      line++;
      continue;
    }
    line += record.newlines + 1;
    pos = record.next;
    onRow({ line: start, cells: record.cells });
  }
  return line - 1;
}

type QuotedRecord = { ok: true; cells: string[]; next: number; newlines: number } | { ok: false; problem: string };

/** Reads one record with quotes from `pos`, strictly: see parseCsv for what counts as malformed. */
function readQuotedRecord(text: string, pos: number): QuotedRecord {
  const n = text.length;
  const cells: string[] = [];
  let cell = "";
  let newlines = 0;
  let i = pos;
  let atCellStart = true;
  for (;;) {
    if (i >= n) {
      cells.push(cell);
      return { ok: true, cells, next: n, newlines };
    }
    const c = text.charCodeAt(i);
    if (c === 34) {
      if (!atCellStart) return { ok: false, problem: `a quote inside an unquoted cell (column ${cells.length + 1}): row skipped` };
      // A quoted cell: runs to the next lone quote, newlines included.
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) return { ok: false, problem: `a quote opened in column ${cells.length + 1} is never closed: row skipped` };
        if (text.charCodeAt(q + 1) === 34) {
          cell += text.slice(j, q + 1);
          j = q + 2;
          continue;
        }
        const inside = text.slice(j, q);
        cell += inside;
        for (let k = inside.indexOf("\n"); k >= 0; k = inside.indexOf("\n", k + 1)) newlines++;
        i = q + 1;
        break;
      }
      const after = text.charCodeAt(i);
      if (i < n && after !== 44 && after !== 10 && after !== 13) {
        return { ok: false, problem: `text after the closing quote of column ${cells.length + 1}: row skipped` };
      }
      atCellStart = false;
      continue;
    }
    if (c === 44) {
      cells.push(cell);
      cell = "";
      atCellStart = true;
    } else if (c === 10) {
      cells.push(cell);
      return { ok: true, cells, next: i + 1, newlines };
    } else if (c !== 13) {
      cell += text[i];
      atCellStart = false;
    }
    i++;
  }
}
