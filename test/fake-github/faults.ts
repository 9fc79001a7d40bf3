/**
 * Faults on demand, per route or global, drawn from a seeded PRNG so a run replays exactly.
 * Rules are tried in the order they were added; every matching rule rolls its own die.
 */
import type { Prng } from "./prng.js";

/** What a rule does when it fires. */
export type FaultEffect =
  /** Delay the request by `ms` (or a uniform draw from `[min, max]`) before it is handled. */
  | { kind: "latency"; ms: number | readonly [number, number] }
  /**
   * Answer with a 5xx (or a transient 404: a read served by a replica that has not seen the object
   * yet). `applied`: whether the write happened anyway (true, false, or a probability).
   */
  | { kind: "error"; status?: 404 | 500 | 502 | 503 | 504; applied?: boolean | number }
  /** GitHub's secondary rate limit: 403 (or 429) with `retry-after`. */
  | { kind: "secondary-rate-limit"; retryAfter?: number; status?: 403 | 429 }
  /** A 422 whose write may or may not have applied, as GitHub can fail after committing. */
  | { kind: "spurious-422"; applied?: boolean | number; message?: string }
  /**
   * After a write to a repository, matching GETs see the repository as it was before it, for `ms`
   * (by the fake's clock) or `requests` reads. With `lagMs`, a matching GET instead sees the
   * repository as it was `lagMs` ago by the fake's clock (a read replica that lags), for as long
   * as the rule lasts: every write of the last `lagMs` is invisible to it. A lagging rule aimed
   * at `POST /graphql` does the same to GraphQL queries (every repository they read), never to
   * mutations.
   */
  | { kind: "stale-read"; ms?: number; requests?: number; lagMs?: number }
  /**
   * A listing changed between its pages: a matching GET of page 2 or later starts `by` records
   * further on (as if that many earlier records had left the list since page 1: one is skipped) or,
   * with a negative `by`, earlier (records were added: one is served twice). Default `by` 1.
   */
  | { kind: "page-shift"; by?: number };

export type FaultRule = FaultEffect & {
  /**
   * Which requests: a route key (`"POST /repos/{owner}/{repo}/git/refs"`), a RegExp tested on the
   * route key, or omitted for the kind's default (every route; ref writes for `spurious-422`; every
   * GET for `stale-read`).
   */
  route?: string | RegExp;
  /** Only requests acting as this login. */
  login?: string;
  /** Only requests whose body matches (e.g. one GraphQL operation: `/updateRefs/`). */
  body?: RegExp;
  /**
   * Fires only while this says so (asked per request, before the die): how a test aims a fault at
   * one moment or one replica sharing a login. A lagging rule keeps history while it is armed,
   * whatever `when` says, so it can serve the past the moment it starts firing.
   */
  when?: () => boolean;
  /** Chance each matching request fires the rule (default 1). */
  probability?: number;
  /** Stop after firing this many times (default: never). */
  times?: number;
};

/** The response-shaping part of a decision; latency is separate. */
export type ResponseFault = Exclude<FaultEffect, { kind: "latency" } | { kind: "stale-read" } | { kind: "page-shift" }> & { willApply: boolean };

export interface FaultDecision {
  latencyMs: number;
  response: ResponseFault | undefined;
}

export interface FiredFault {
  route: string;
  kind: FaultEffect["kind"];
}

export interface Faults {
  /** Adds a rule; returns a function that removes it. */
  add(rule: FaultRule): () => void;
  clear(): void;
  /** Every fault that fired, in order. */
  readonly fired: readonly FiredFault[];
  /** Decides the faults of one request. */
  decide(routeKey: string, login: string | null, body?: string): FaultDecision;
  /**
   * The stale-read rule that fires for this GET, if any (consumes one of its `times`). `lagged`:
   * only rules with `lagMs` (else only rules without); `usable` is asked before the die is rolled.
   */
  staleRule(routeKey: string, login: string | null, lagged?: boolean, usable?: (rule: Extract<FaultEffect, { kind: "stale-read" }>) => boolean): Extract<FaultEffect, { kind: "stale-read" }> | undefined;
  /** True while any stale-read rule could still fire: writes then snapshot their repository. */
  staleArmed(): boolean;
  /** The longest `lagMs` of any stale-read rule that could still fire (0: none): how much history writes keep. */
  lagArmed(): number;
  /** How many records a page-shift rule moves this GET's page by (0: none fired; consumes one of its `times`). */
  pageShift(routeKey: string, login: string | null): number;
}

const REF_WRITES = /^(POST|PATCH|DELETE) \/repos\/\{owner\}\/\{repo\}\/git\/refs/;
const GETS = /^GET /;

interface Armed {
  rule: FaultRule;
  left: number;
}

export function createFaults(prng: Prng): Faults {
  let rules: Armed[] = [];
  const fired: FiredFault[] = [];
  const applies = (armed: Armed, routeKey: string, login: string | null, body: string): boolean => {
    const { rule } = armed;
    if (armed.left <= 0) return false;
    if (rule.login !== undefined && rule.login !== login) return false;
    if (rule.body !== undefined && !rule.body.test(body)) return false;
    const route = rule.route ?? (rule.kind === "spurious-422" ? REF_WRITES : rule.kind === "stale-read" || rule.kind === "page-shift" ? GETS : undefined);
    if (typeof route === "string" && route !== routeKey) return false;
    if (route instanceof RegExp && !route.test(routeKey)) return false;
    // Asked only of requests the rule's route matches, so a test can act at that request.
    if (rule.when !== undefined && !rule.when()) return false;
    return prng.chance(rule.probability ?? 1);
  };
  const fire = (armed: Armed, routeKey: string): void => {
    armed.left--;
    fired.push({ route: routeKey, kind: armed.rule.kind });
  };
  const roll = (p: boolean | number | undefined, fallback: boolean): boolean => (p === undefined ? fallback : typeof p === "boolean" ? p : prng.chance(p));
  return {
    add(rule) {
      const armed = { rule, left: rule.times ?? Number.POSITIVE_INFINITY };
      rules.push(armed);
      return () => {
        rules = rules.filter((r) => r !== armed);
      };
    },
    clear() {
      rules = [];
    },
    get fired() {
      return fired;
    },
    decide(routeKey, login, body = "") {
      let latencyMs = 0;
      let response: ResponseFault | undefined;
      for (const armed of rules) {
        const { rule } = armed;
        if (rule.kind === "stale-read" || rule.kind === "page-shift") continue;
        if (rule.kind !== "latency" && response !== undefined) continue;
        if (!applies(armed, routeKey, login, body)) continue;
        fire(armed, routeKey);
        if (rule.kind === "latency") {
          latencyMs += typeof rule.ms === "number" ? rule.ms : prng.int(rule.ms[0], rule.ms[1]);
        } else if (rule.kind === "error") {
          response = { kind: "error", status: rule.status ?? 502, willApply: roll(rule.applied, false) };
        } else if (rule.kind === "spurious-422") {
          response = { kind: "spurious-422", ...(rule.message === undefined ? {} : { message: rule.message }), willApply: roll(rule.applied, true) };
        } else {
          response = { kind: "secondary-rate-limit", retryAfter: rule.retryAfter ?? 60, status: rule.status ?? 403, willApply: false };
        }
      }
      return { latencyMs, response };
    },
    staleRule(routeKey, login, lagged = false, usable = () => true) {
      for (const armed of rules) {
        const { rule } = armed;
        if (rule.kind !== "stale-read" || (rule.lagMs !== undefined) !== lagged || !usable(rule) || !applies(armed, routeKey, login, "")) continue;
        fire(armed, routeKey);
        return rule;
      }
      return undefined;
    },
    staleArmed() {
      return rules.some((r) => r.rule.kind === "stale-read" && r.rule.lagMs === undefined && r.left > 0);
    },
    lagArmed() {
      return Math.max(0, ...rules.map((r) => (r.rule.kind === "stale-read" && r.left > 0 ? (r.rule.lagMs ?? 0) : 0)));
    },
    pageShift(routeKey, login) {
      for (const armed of rules) {
        if (armed.rule.kind !== "page-shift" || !applies(armed, routeKey, login, "")) continue;
        fire(armed, routeKey);
        return armed.rule.by ?? 1;
      }
      return 0;
    },
  };
}
