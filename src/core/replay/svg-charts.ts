import { formatDate } from "./format-date.js";

/** One named series of values for a chart. */
export interface Series {
  readonly name: string;
  readonly values: readonly (number | null)[];
}

export const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948", "#9c755f"];

/** Escapes text for HTML and SVG. */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const fmt = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/**
 * Width of a label in px, over-estimated (0.62 em a character, wider than a sans-serif glyph on
 * average): every layout decision below uses it, so labels placed apart stay apart on screen.
 */
export const textWidth = (text: string, size: number): number => text.length * size * 0.62;

/** A "nice" axis maximum at or above `max` (1, 2 or 5 times a power of ten). */
function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

const W = 760;
const FONT = 11;

/**
 * A legend laid out by measured widths, wrapping onto a new row rather than overlapping.
 * Returns the markup and the height it takes.
 */
function legend(names: readonly string[], x: number, y: number, maxX: number): { svg: string; height: number } {
  let cx = x;
  let cy = y;
  const parts: string[] = [];
  names.forEach((n, i) => {
    const w = 16 + textWidth(n, FONT) + 14;
    if (cx + w > maxX && cx > x) {
      cx = x;
      cy += 18;
    }
    parts.push(`<g transform="translate(${cx.toFixed(1)},${cy})"><rect width="12" height="12" fill="${PALETTE[i % PALETTE.length]}"/><text x="16" y="11">${esc(n)}</text></g>`);
    cx += w;
  });
  return { svg: parts.join(""), height: cy - y + 18 };
}

/** Frame of a vertical-value chart: title, grid and y labels up to `max`, the unit rotated on the left. */
function frame(title: string, unit: string, max: number, top: number, plotH: number, left: number, height: number): { parts: string[]; y: (v: number) => number } {
  const y = (v: number): number => top + plotH - (v / max) * plotH;
  const parts: string[] = [`<svg viewBox="0 0 ${W} ${height}" role="img" aria-label="${esc(title)}"><text x="${left}" y="18" class="title">${esc(title)}</text>`];
  for (let k = 0; k <= 4; k++) {
    const v = (max * k) / 4;
    parts.push(`<line x1="${left}" x2="${W - 16}" y1="${y(v)}" y2="${y(v)}" class="grid"/><text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${fmt(v)}</text>`);
  }
  parts.push(`<text x="12" y="${top + plotH / 2}" transform="rotate(-90 12 ${top + plotH / 2})" text-anchor="middle">${esc(unit)}</text>`);
  return { parts, y };
}

/**
 * One horizontal bar per row, labelled directly: the name left of the bar, the value at its end
 * (inside the bar when it would run off the canvas). One row per policy, so no label can meet
 * another. An optional marker (the lower bound) is a dashed vertical line named above the rows.
 */
export function horizontalBars(title: string, unit: string, rows: readonly { name: string; value: number | null }[], marker?: { label: string; value: number }): string {
  const ROW = 24;
  const top = 46;
  const left = Math.max(90, 16 + Math.max(0, ...rows.map((r) => textWidth(r.name, FONT))));
  const right = W - 16;
  const max = niceMax(Math.max(0, marker?.value ?? 0, ...rows.map((r) => r.value ?? 0)));
  const x = (v: number): number => left + (v / max) * (right - left);
  const height = top + rows.length * ROW + 34;
  const parts = [`<svg viewBox="0 0 ${W} ${height}" role="img" aria-label="${esc(title)}"><text x="${left}" y="18" class="title">${esc(title)}</text>`];
  for (let k = 0; k <= 4; k++) {
    const v = (max * k) / 4;
    parts.push(`<line x1="${x(v)}" x2="${x(v)}" y1="${top - 4}" y2="${top + rows.length * ROW}" class="grid"/><text x="${x(v)}" y="${top + rows.length * ROW + 14}" text-anchor="${k === 4 ? "end" : k === 0 ? "start" : "middle"}">${fmt(v)}</text>`);
  }
  parts.push(`<text x="${right}" y="${top + rows.length * ROW + 30}" text-anchor="end">${esc(unit)}</text>`);
  rows.forEach((r, i) => {
    const yTop = top + i * ROW + 3;
    parts.push(`<text x="${left - 8}" y="${yTop + 13}" text-anchor="end">${esc(r.name)}</text>`);
    if (r.value === null) {
      parts.push(`<text x="${left + 4}" y="${yTop + 13}" class="small">no item completed</text>`);
      return;
    }
    const end = x(r.value);
    parts.push(`<rect x="${left}" y="${yTop}" width="${Math.max(1, end - left).toFixed(1)}" height="${ROW - 8}" fill="${PALETTE[i % PALETTE.length]}"><title>${esc(`${r.name}: ${fmt(r.value)} ${unit}`)}</title></rect>`);
    const label = fmt(r.value);
    const outside = end + 4 + textWidth(label, FONT) <= right;
    parts.push(`<text x="${outside ? end + 4 : end - 4}" y="${yTop + 13}" text-anchor="${outside ? "start" : "end"}"${outside ? "" : ' fill="#fff"'}>${label}</text>`);
  });
  if (marker !== undefined) {
    const mx = x(marker.value);
    const label = `${marker.label} ${fmt(marker.value)}`;
    const anchor = mx + textWidth(label, 10) / 2 > right ? "end" : mx - textWidth(label, 10) / 2 < left ? "start" : "middle";
    parts.push(`<line x1="${mx}" x2="${mx}" y1="${top - 6}" y2="${top + rows.length * ROW}" class="marker"/><text x="${mx}" y="${top - 10}" text-anchor="${anchor}" class="small">${esc(label)}</text>`);
  }
  parts.push("</svg>");
  return parts.join("");
}

/**
 * Grouped bars: one group per category, one bar per series, a legend instead of numbers on the
 * bars (the tables carry the numbers; each bar's tooltip has its value). A category with no value
 * in any series says "no items" once, in the middle of its group.
 */
export function groupedBars(title: string, unit: string, categories: readonly string[], series: readonly Series[]): string {
  const left = 56;
  const top = 40;
  const plotH = 200;
  const plotW = W - left - 16;
  const leg = legend(series.map((s) => s.name), left, top + plotH + 30, W - 16);
  const height = top + plotH + 30 + leg.height + 4;
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const max = niceMax(Math.max(0, ...all));
  const groupW = plotW / Math.max(categories.length, 1);
  const barW = Math.max(2, (groupW * 0.8) / Math.max(series.length, 1));
  const { parts, y } = frame(title, unit, max, top, plotH, left, height);
  categories.forEach((c, ci) => {
    const gx = left + ci * groupW + groupW * 0.1;
    const mid = gx + (series.length * barW) / 2;
    if (series.every((s) => (s.values[ci] ?? null) === null)) parts.push(`<text x="${mid}" y="${top + plotH - 6}" text-anchor="middle" class="small">no items</text>`);
    series.forEach((s, si) => {
      const v = s.values[ci] ?? null;
      if (v === null) return;
      parts.push(`<rect x="${gx + si * barW}" y="${y(v)}" width="${barW - 1}" height="${Math.max(0, top + plotH - y(v))}" fill="${PALETTE[si % PALETTE.length]}"><title>${esc(`${s.name}, ${c}: ${fmt(v)} ${unit}`)}</title></rect>`);
    });
    parts.push(`<text x="${mid}" y="${top + plotH + 16}" text-anchor="middle">${esc(c)}</text>`);
  });
  parts.push(leg.svg, "</svg>");
  return parts.join("");
}

/**
 * Lines over time, one per series, sampled every `bucketMs` from `t0` (ms since the epoch); the
 * time axis is labelled with dates (and hours when the span is short), the end labels kept inside
 * the canvas.
 */
export function lineChart(title: string, unit: string, t0: number, bucketMs: number, series: readonly Series[]): string {
  const left = 56;
  const top = 40;
  const plotH = 200;
  const plotW = W - left - 16;
  const leg = legend(series.map((s) => s.name), left, top + plotH + 30, W - 16);
  const height = top + plotH + 30 + leg.height + 4;
  const len = Math.max(1, ...series.map((s) => s.values.length));
  const max = niceMax(Math.max(0, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null))));
  const x = (k: number): number => left + (k / Math.max(len - 1, 1)) * plotW;
  const { parts, y } = frame(title, unit, max, top, plotH, left, height);
  const spanMs = (len - 1) * bucketMs;
  const withTime = spanMs < 4 * 86_400_000;
  const TICKS = withTime ? 4 : 5;
  for (let k = 0; k <= TICKS; k++) {
    const i = Math.round(((len - 1) * k) / TICKS);
    const label = formatDate(t0 + i * bucketMs, withTime ? "minute" : "day");
    parts.push(`<text x="${x(i)}" y="${top + plotH + 16}" text-anchor="${k === 0 ? "start" : k === TICKS ? "end" : "middle"}">${esc(label)}</text>`);
  }
  series.forEach((s, si) => {
    const pts = s.values.map((v, k) => `${x(k).toFixed(1)},${y(v ?? 0).toFixed(1)}`).join(" ");
    parts.push(`<polyline points="${pts}" fill="none" stroke="${PALETTE[si % PALETTE.length]}" stroke-width="1.5"><title>${esc(s.name)}</title></polyline>`);
  });
  parts.push(leg.svg, "</svg>");
  return parts.join("");
}
