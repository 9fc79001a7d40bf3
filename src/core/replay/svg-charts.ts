/** One named series of values for a chart. */
export interface Series {
  readonly name: string;
  readonly values: readonly (number | null)[];
}

export const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948", "#9c755f"];

/** Escapes text for HTML and SVG. */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const fmt = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/** A "nice" axis maximum at or above `max` (1, 2 or 5 times a power of ten). */
function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

function legend(names: readonly string[], x: number, y: number): string {
  return names
    .map((n, i) => `<g transform="translate(${x + i * 110},${y})"><rect width="12" height="12" fill="${PALETTE[i % PALETTE.length]}"/><text x="16" y="11">${esc(n)}</text></g>`)
    .join("");
}

/** Both charts' canvas: size, margins and plot area. */
const W = 760;
const H = 300;
const LEFT = 56;
const TOP = 40;
const PLOT_W = W - LEFT - 16;
const PLOT_H = H - TOP - 50;

/** The shared frame: title, horizontal grid with values up to `max`, and the unit on the y axis. Returns the y scale too. */
function frame(title: string, unit: string, max: number): { parts: string[]; y: (v: number) => number } {
  const y = (v: number): number => TOP + PLOT_H - (v / max) * PLOT_H;
  const parts: string[] = [`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}"><text x="${LEFT}" y="18" class="title">${esc(title)}</text>`];
  for (let k = 0; k <= 4; k++) {
    const v = (max * k) / 4;
    parts.push(`<line x1="${LEFT}" x2="${W - 16}" y1="${y(v)}" y2="${y(v)}" class="grid"/><text x="${LEFT - 6}" y="${y(v) + 4}" text-anchor="end">${fmt(v)}</text>`);
  }
  parts.push(`<text x="12" y="${TOP + PLOT_H / 2}" transform="rotate(-90 12 ${TOP + PLOT_H / 2})" text-anchor="middle">${esc(unit)}</text>`);
  return { parts, y };
}

/**
 * Grouped bars: one group per category, one bar per series, value labels on the bars. Empty
 * cells (null) draw nothing and are labelled "—", so a band with no items is visibly empty.
 */
export function groupedBars(title: string, unit: string, categories: readonly string[], series: readonly Series[], marker?: { label: string; value: number }): string {
  const [w, h, left, top, plotW, plotH] = [W, H, LEFT, TOP, PLOT_W, PLOT_H];
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const max = niceMax(Math.max(...all, marker?.value ?? 0, 0));
  const groupW = plotW / Math.max(categories.length, 1);
  const barW = Math.max(2, (groupW * 0.8) / Math.max(series.length, 1));
  const { parts, y } = frame(title, unit, max);
  categories.forEach((c, ci) => {
    const gx = left + ci * groupW + groupW * 0.1;
    series.forEach((s, si) => {
      const v = s.values[ci] ?? null;
      const x = gx + si * barW;
      if (v === null) {
        parts.push(`<text x="${x + barW / 2}" y="${top + plotH - 4}" text-anchor="middle" class="small">—</text>`);
        return;
      }
      parts.push(`<rect x="${x}" y="${y(v)}" width="${barW - 1}" height="${Math.max(0, top + plotH - y(v))}" fill="${PALETTE[si % PALETTE.length]}"><title>${esc(`${s.name}, ${c}: ${fmt(v)} ${unit}`)}</title></rect>`);
      if (barW >= 18) parts.push(`<text x="${x + barW / 2}" y="${y(v) - 3}" text-anchor="middle" class="small">${fmt(v)}</text>`);
    });
    parts.push(`<text x="${gx + (series.length * barW) / 2}" y="${top + plotH + 16}" text-anchor="middle">${esc(c)}</text>`);
  });
  if (marker !== undefined) {
    parts.push(`<line x1="${left}" x2="${w - 16}" y1="${y(marker.value)}" y2="${y(marker.value)}" class="marker"/><text x="${w - 18}" y="${y(marker.value) - 4}" text-anchor="end" class="small">${esc(marker.label)} ${fmt(marker.value)}</text>`);
  }
  parts.push(legend(series.map((s) => s.name), left, h - 16), "</svg>");
  return parts.join("");
}

/** Lines over time: x in hours since the start, one line per series, sampled every `stepH` hours. */
export function lineChart(title: string, unit: string, stepH: number, series: readonly Series[]): string {
  const [h, left, top, plotW, plotH] = [H, LEFT, TOP, PLOT_W, PLOT_H];
  const len = Math.max(1, ...series.map((s) => s.values.length));
  const max = niceMax(Math.max(0, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null))));
  const x = (k: number): number => left + (k / Math.max(len - 1, 1)) * plotW;
  const { parts, y } = frame(title, unit, max);
  for (let k = 0; k <= 4; k++) {
    const i = Math.round(((len - 1) * k) / 4);
    parts.push(`<text x="${x(i)}" y="${top + plotH + 16}" text-anchor="middle">${fmt(i * stepH)} h</text>`);
  }
  series.forEach((s, si) => {
    const pts = s.values.map((v, k) => `${x(k).toFixed(1)},${y(v ?? 0).toFixed(1)}`).join(" ");
    parts.push(`<polyline points="${pts}" fill="none" stroke="${PALETTE[si % PALETTE.length]}" stroke-width="1.5"><title>${esc(s.name)}</title></polyline>`);
  });
  parts.push(legend(series.map((s) => s.name), left, h - 16), "</svg>");
  return parts.join("");
}
