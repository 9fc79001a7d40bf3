/**
 * Text boxes of an inline SVG, computed from what the markup says: x/y, text-anchor, font size
 * (from the class or the chart's default) and the length of the text, translated by enclosing
 * `<g transform="translate(…)">`. Widths use 0.62 em per character — wider than the average
 * glyph of a sans-serif face — so a pair that does not overlap here does not overlap on screen.
 */
export interface TextBox {
  readonly text: string;
  readonly x0: number;
  readonly x1: number;
  readonly y0: number;
  readonly y1: number;
}

const SIZES: Record<string, number> = { small: 10, title: 13 };
const DEFAULT_SIZE = 11;
const EM_PER_CHAR = 0.62;

/** The SVG elements of an HTML page. */
export function svgsOf(html: string): string[] {
  return [...html.matchAll(/<svg\b[\s\S]*?<\/svg>/g)].map((m) => m[0]);
}

/** Every horizontal text box of one SVG (rotated labels are left out: only the axis title is). */
export function textBoxes(svg: string): TextBox[] {
  const boxes: TextBox[] = [];
  const offsets: Array<[number, number]> = [];
  const tags = /<(\/?)(g|text)\b([^>]*)>([^<]*)/g;
  for (const m of svg.matchAll(tags)) {
    const [, closing, tag, attrs = "", content = ""] = m;
    if (tag === "g") {
      if (closing === "/") offsets.pop();
      else {
        const t = /translate\(\s*([-\d.]+)[ ,]+([-\d.]+)\s*\)/.exec(attrs);
        offsets.push(t === null ? [0, 0] : [Number(t[1]), Number(t[2])]);
      }
      continue;
    }
    if (closing === "/" || /rotate\(/.test(attrs)) continue;
    const text = decode(content);
    if (text.trim() === "") continue;
    const [dx, dy] = offsets.reduce(([a, b], [c, d]) => [a + c, b + d], [0, 0]);
    const x = Number(/\bx="([-\d.]+)"/.exec(attrs)?.[1] ?? 0) + dx;
    const y = Number(/\by="([-\d.]+)"/.exec(attrs)?.[1] ?? 0) + dy;
    const cls = /class="([^"]*)"/.exec(attrs)?.[1] ?? "";
    const size = cls.split(/\s+/).map((c) => SIZES[c]).find((s) => s !== undefined) ?? DEFAULT_SIZE;
    const width = text.length * size * EM_PER_CHAR;
    const anchor = /text-anchor="(\w+)"/.exec(attrs)?.[1] ?? "start";
    const x0 = anchor === "middle" ? x - width / 2 : anchor === "end" ? x - width : x;
    // The baseline is at y: glyphs rise about 0.8 em above it and descend 0.2 em below.
    boxes.push({ text, x0, x1: x0 + width, y0: y - size * 0.8, y1: y + size * 0.2 });
  }
  return boxes;
}

/** Pairs of text boxes of one SVG that overlap, or that run outside its viewBox. */
export function textCollisions(svg: string): string[] {
  const [, , w = 0, h = 0] = (/viewBox="([^"]*)"/.exec(svg)?.[1] ?? "0 0 0 0").split(/\s+/).map(Number);
  const boxes = textBoxes(svg);
  const out: string[] = [];
  for (const b of boxes) if (b.x0 < 0 || b.x1 > w || b.y0 < 0 || b.y1 > h) out.push(`"${b.text}" runs outside the ${w}×${h} canvas`);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i] as TextBox;
      const b = boxes[j] as TextBox;
      if (a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1) out.push(`"${a.text}" overlaps "${b.text}"`);
    }
  }
  return out;
}

function decode(s: string): string {
  return s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
}
