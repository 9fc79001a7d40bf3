/** A one-line progress bar on a stream, redrawn at most every 1% so it costs nothing on big traces. */
export function progressBar(stream: NodeJS.WritableStream, label: string): { update: (done: number, total: number) => void; done: () => void } {
  let shown = -1;
  let drawn = false;
  return {
    update: (done, total) => {
      const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
      if (pct === shown) return;
      shown = pct;
      drawn = true;
      const width = 30;
      const fill = Math.round((pct / 100) * width);
      stream.write(`\r${label} [${"#".repeat(fill)}${".".repeat(width - fill)}] ${String(pct).padStart(3)}% ${done}/${total}`);
    },
    done: () => {
      if (drawn) stream.write("\n");
    },
  };
}
