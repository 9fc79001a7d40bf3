/** GitHub's page-number pagination: `per_page` (default 30, at most 100), `page`, and a Link header. */
import type { Reply, RouteContext } from "./route.js";

export interface PageOptions<T> {
  /** Turns the records of the page (only those) into JSON. */
  map?: (item: T) => unknown;
  /** GitHub's hard cap on the whole list (3,000 files of a pull request, 250 commits). */
  max?: number;
  /** Wrap the page, e.g. `{ total_count, workflow_runs }`. */
  wrap?: (page: unknown[], total: number) => unknown;
}

/** One page of `items` with `Link: <…>; rel="next", <…>; rel="last"` (and prev/first) as GitHub sends. */
export function paginate<T>(ctx: RouteContext, items: readonly T[], options: PageOptions<T> = {}): Reply {
  const capped = options.max === undefined ? items : items.slice(0, options.max);
  const perPage = clamp(Number(ctx.query.get("per_page") ?? 30), 1, 100, 30);
  const page = clamp(Number(ctx.query.get("page") ?? 1), 1, Number.MAX_SAFE_INTEGER, 1);
  const last = Math.max(1, Math.ceil(capped.length / perPage));
  // A page-shift fault: the list changed since page 1, so this page starts elsewhere.
  const start = Math.max(0, (page - 1) * perPage + (page > 1 ? (ctx.pageShift ?? 0) : 0));
  const records = capped.slice(start, start + perPage);
  const slice: unknown[] = options.map === undefined ? records : records.map(options.map);
  const link = (n: number, rel: string): string => {
    const url = new URL(ctx.url.href);
    url.searchParams.set("per_page", String(perPage));
    url.searchParams.set("page", String(n));
    return `<${url.href}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(Math.min(page - 1, last), "prev"));
  if (page < last) links.push(link(page + 1, "next"), link(last, "last"));
  if (page > 1) links.push(link(1, "first"));
  const headers: Record<string, string> = links.length > 0 ? { link: links.join(", ") } : {};
  const body = options.wrap === undefined ? slice : options.wrap(slice, capped.length);
  return { status: 200, body, headers };
}

function clamp(n: number, min: number, max: number, fallback: number): number {
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(n)));
}
