/**
 * `GET /repos/{owner}/{repo}/activity` ("List repository activities",
 * https://docs.github.com/en/rest/repos/repos#list-repository-activities): who pushed, force-pushed,
 * created or deleted which branch. Filters `ref` (`refs/heads/x` or `x`), `actor`, `activity_type`,
 * `time_period`; `direction` (default desc, newest first); `per_page` (default 30, at most 100).
 * It pages by cursor, not by page number: `before`/`after` take a cursor from the `Link` header
 * (https://docs.github.com/rest/using-the-rest-api/using-pagination-in-the-rest-api).
 */
import { validationFailed } from "../http-error.js";
import { isoTime } from "../clock.js";
import type { Reply, Route, RouteContext } from "../route.js";
import type { ActivityRecord, FakeState } from "../state.js";
import { nodeId, userJson } from "../to-json-user-repo.js";

const TYPES = new Set(["push", "force_push", "branch_creation", "branch_deletion", "pr_merge", "merge_queue_merge"]);
const PERIODS: Record<string, number> = { day: 1, week: 7, month: 30, quarter: 91, year: 365 };
const DAY_MS = 86_400_000;

const cursorOf = (id: number): string => Buffer.from(`cursor:v2:${id}`).toString("base64");
function idOf(cursor: string): number {
  const match = /^cursor:v2:(\d+)$/.exec(Buffer.from(cursor, "base64").toString("utf8"));
  if (match?.[1] === undefined) throw validationFailed("Validation Failed", [{ resource: "Activity", field: "cursor", code: "invalid" }]);
  return Number(match[1]);
}

function listActivities(state: FakeState, ctx: RouteContext): Reply {
  const q = (k: string) => ctx.query.get(k);
  const ref = q("ref");
  const wantRef = ref === null ? undefined : ref.startsWith("refs/") ? ref : `refs/heads/${ref}`;
  const type = q("activity_type");
  if (type !== null && !TYPES.has(type)) throw validationFailed("Validation Failed", [{ resource: "Activity", field: "activity_type", code: "invalid" }]);
  const period = q("time_period");
  if (period !== null && PERIODS[period] === undefined) throw validationFailed("Validation Failed", [{ resource: "Activity", field: "time_period", code: "invalid" }]);
  const since = period === null ? Number.NEGATIVE_INFINITY : state.clock.now() - (PERIODS[period] ?? 0) * DAY_MS;
  const asc = q("direction") === "asc";
  const perPage = Math.min(100, Math.max(1, Math.trunc(Number(q("per_page") ?? 30)) || 30));
  const all = ctx.repo.activities
    .filter((a) => (wantRef === undefined || a.ref === wantRef) && (type === null || a.activityType === type) && (q("actor") === null || a.actor === q("actor")) && a.at >= since)
    .sort((a, b) => (asc ? a.id - b.id : b.id - a.id));
  const after = q("after");
  const before = q("before");
  let start = 0;
  if (after !== null) start = all.findIndex((a) => (asc ? a.id > idOf(after) : a.id < idOf(after)));
  if (before !== null) {
    const end = all.findIndex((a) => (asc ? a.id >= idOf(before) : a.id <= idOf(before)));
    start = Math.max(0, (end === -1 ? all.length : end) - perPage);
  }
  const page = start === -1 ? [] : all.slice(start, start + perPage);
  const links: string[] = [];
  const link = (key: "after" | "before", record: ActivityRecord, rel: string) => {
    const url = new URL(ctx.url.href);
    url.searchParams.delete("after");
    url.searchParams.delete("before");
    url.searchParams.set("per_page", String(perPage));
    url.searchParams.set(key, cursorOf(record.id));
    links.push(`<${url.href}>; rel="${rel}"`);
  };
  const first = page[0];
  const last = page.at(-1);
  if (first !== undefined && start > 0) link("before", first, "prev");
  if (last !== undefined && start + perPage < all.length) link("after", last, "next");
  return { status: 200, body: page.map((a) => activityJson(state, a)), ...(links.length > 0 ? { headers: { link: links.join(", ") } } : {}) };
}

function activityJson(state: FakeState, a: ActivityRecord): Record<string, unknown> {
  return { id: a.id, node_id: nodeId("PushActivity", a.id), before: a.before, after: a.after, ref: a.ref, timestamp: isoTime(a.at), activity_type: a.activityType, actor: a.actor === null ? null : userJson(state, a.actor) };
}

export const activityRoutes: Route[] = [{ method: "GET", pattern: "/repos/{owner}/{repo}/activity", kind: "read", handler: listActivities }];
