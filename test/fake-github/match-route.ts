/** Matches a raw request path against the route table. */
import type { Route } from "./route.js";

/** Parameters whose value may hold slashes (GitHub's `x-multi-segment`), raw or as `%2F`. */
const MULTI_SEGMENT = new Set(["ref", "path", "basehead"]);
/** Parameters that are always numbers, so `/issues/comments` never reads as issue `comments`. */
const NUMERIC = /(_number|_id|^id)$/;
const NOT_NUMERIC = new Set(["workflow_id"]);

interface Compiled {
  route: Route;
  regex: RegExp;
  names: string[];
}

export interface Matcher {
  match(method: string, rawPath: string): { route: Route; params: Record<string, string> } | undefined;
}

/** Compiles the table once; literal segments are escaped, `{x}` becomes a capture. */
export function createMatcher(routes: readonly Route[]): Matcher {
  const compiled: Compiled[] = routes.map((route) => {
    const names: string[] = [];
    const source = route.pattern
      .split(/(\{[a-z_]+\})/)
      .map((part) => {
        const name = /^\{([a-z_]+)\}$/.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
        names.push(name);
        if (MULTI_SEGMENT.has(name)) return "(.+)";
        if (NUMERIC.test(name) && !NOT_NUMERIC.has(name)) return "(\\d+)";
        return "([^/]+)";
      })
      .join("");
    return { route, regex: new RegExp(`^${source}/?$`), names };
  });
  // A multi-segment capture swallows slashes, so `commits/{ref}` must be tried after `commits/{ref}/status`:
  // routes without one first, then the longest literal text first.
  const literal = (c: Compiled): number => c.route.pattern.replace(/\{[a-z_]+\}/g, "").length;
  const multi = (c: Compiled): boolean => c.names.some((n) => MULTI_SEGMENT.has(n));
  compiled.sort((a, b) => Number(multi(a)) - Number(multi(b)) || literal(b) - literal(a));
  return {
    match(method, rawPath) {
      for (const c of compiled) {
        if (c.route.method !== method) continue;
        const m = c.regex.exec(rawPath);
        if (m === null) continue;
        const params: Record<string, string> = {};
        c.names.forEach((name, i) => {
          params[name] = decodeURIComponent(m[i + 1] ?? "");
        });
        return { route: c.route, params };
      }
      return undefined;
    },
  };
}
