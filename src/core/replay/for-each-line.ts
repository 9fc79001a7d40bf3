/** Calls `onLine` with each non-blank line of `text` and its 1-based number. */
export function forEachLine(text: string, onLine: (line: string, n: number) => void): void {
  let pos = 0;
  let n = 1;
  while (pos < text.length) {
    let end = text.indexOf("\n", pos);
    if (end < 0) end = text.length;
    const line = text.slice(pos, end).trim();
    if (line !== "") onLine(line, n);
    pos = end + 1;
    n++;
  }
}
