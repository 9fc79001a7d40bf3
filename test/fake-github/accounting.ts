/** Request accounting: counters per endpoint and per kind, and a full request log. */
import type { RouteKind } from "./route.js";

export interface RequestLogEntry {
  seq: number;
  method: string;
  /** The path as requested (decoded query left out). */
  path: string;
  /** Route template key, e.g. `POST /repos/{owner}/{repo}/git/refs`; null for unknown routes. */
  route: string | null;
  kind: RouteKind | null;
  status: number;
  /** Login the request acted as (`octocat`, `bosun[bot]`, `app-1[bot]`), or null when anonymous. */
  login: string | null;
  /** The fake's clock at arrival, in ms. */
  time: number;
  /** The fault that shaped the response, if any (`latency` alone is not listed). */
  fault: string | null;
}

export interface Counters {
  total: number;
  /** GETs answered with anything but 304. */
  read: number;
  /** Everything that is not a GET, content-creating ones included. */
  write: number;
  /**
   * Requests to content-creating endpoints (issues, comments, labels, pulls, reviews, commits, refs,
   * statuses, check runs, deployments, dispatches): the ones GitHub's secondary limit (~80/min,
   * 500/h) counts. Counted on arrival, failures included.
   */
  contentCreating: number;
  /** Conditional GETs answered 304: free against the primary rate limit. */
  notModified: number;
  byEndpoint: Record<string, number>;
  byStatus: Record<string, number>;
}

export type LogFilter = Partial<Pick<RequestLogEntry, "method" | "route" | "kind" | "status" | "login">> | ((entry: RequestLogEntry) => boolean);

export interface Accounting {
  /** Every request since the last reset, in arrival order. */
  readonly log: readonly RequestLogEntry[];
  record(entry: Omit<RequestLogEntry, "seq">): void;
  counters(): Counters;
  /** How many logged requests match the filter. */
  count(filter?: LogFilter): number;
  /** Clears the log and the counters. */
  reset(): void;
}

export function createAccounting(): Accounting {
  let log: RequestLogEntry[] = [];
  let seq = 0;
  const matches = (entry: RequestLogEntry, filter: LogFilter | undefined): boolean => {
    if (filter === undefined) return true;
    if (typeof filter === "function") return filter(entry);
    return Object.entries(filter).every(([k, v]) => entry[k as keyof RequestLogEntry] === v);
  };
  return {
    get log() {
      return log;
    },
    record(entry) {
      log.push({ seq: ++seq, ...entry });
    },
    counters() {
      const c: Counters = { total: 0, read: 0, write: 0, contentCreating: 0, notModified: 0, byEndpoint: {}, byStatus: {} };
      for (const e of log) {
        c.total++;
        if (e.status === 304) c.notModified++;
        else if (e.method === "GET") c.read++;
        else c.write++;
        if (e.kind === "create") c.contentCreating++;
        const endpoint = e.route ?? `${e.method} (unknown)`;
        c.byEndpoint[endpoint] = (c.byEndpoint[endpoint] ?? 0) + 1;
        c.byStatus[String(e.status)] = (c.byStatus[String(e.status)] ?? 0) + 1;
      }
      return c;
    },
    count(filter) {
      return log.reduce((n, e) => n + (matches(e, filter) ? 1 : 0), 0);
    },
    reset() {
      log = [];
    },
  };
}
