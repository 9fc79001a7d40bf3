import type { ProbeFailureCode, ProbeOutcome } from "./probe-outcome.js";

/** Where in a response the version lives. */
export type VersionSource =
  | { readonly kind: "body" }
  | { readonly kind: "field"; readonly path: string }
  | { readonly kind: "header"; readonly name: string }
  | { readonly kind: "regex"; readonly pattern: string };

/**
 * A version longer than this is a page or an attack, not a version: refused, so that it is never
 * quoted in every probe line (a 1 MB field once made 17 MB of log in 10 s). For the whole body, it
 * means: ask for --field/--header/--match.
 */
export const MAX_VERSION_CHARS = 200;
const MAX_BODY_VERSION = MAX_VERSION_CHARS;

/**
 * Reads the version from a response body (and headers, for HTTP) as `source` says. A missing
 * field, a body that is not JSON or a pattern that does not match is a could-not-check outcome,
 * never a version: the target answered, but we still do not know what it runs.
 *
 * @example readVersion({ kind: "field", path: "build.sha" }, '{"build":{"sha":"abc1234"}}')
 */
export function readVersion(
  source: VersionSource,
  body: string,
  headers: Readonly<Record<string, string>> = {},
  detail = "",
): ProbeOutcome {
  const found = (value: string, how: string): ProbeOutcome => {
    const v = value.trim();
    if (v === "") return fail("not-a-version", `${how} is empty`);
    if (v.length > MAX_VERSION_CHARS) return fail("not-a-version", `${how} is ${v.length} characters, too long for a version (at most ${MAX_VERSION_CHARS})`);
    return { kind: "value", value: v, detail: detail === "" ? how : `${detail}, ${how}` };
  };
  switch (source.kind) {
    case "body": {
      const text = body.trim();
      if (text.length > MAX_BODY_VERSION) {
        return fail("not-a-version", `body is ${text.length} characters, too long for a version (use a field, header or pattern)`);
      }
      return found(text, "body");
    }
    case "header": {
      const want = source.name.toLowerCase();
      const hit = Object.entries(headers).find(([name]) => name.toLowerCase() === want);
      if (hit === undefined) return fail("header-missing", `header '${source.name}' is missing`);
      return found(hit[1], `header ${source.name}`);
    }
    case "regex": {
      const m = new RegExp(source.pattern, "m").exec(body);
      if (m === null) return fail("no-match", `pattern /${source.pattern}/ does not match the output`);
      return found(m[1] ?? m[0], `pattern /${source.pattern}/`);
    }
    case "field": {
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        return fail("not-json", `body is not JSON (${body.length} bytes), so field '${source.path}' cannot be read`);
      }
      const value = readPath(json, source.path);
      if (value === undefined) return fail("field-missing", `field '${source.path}' is missing`);
      // A JSON number is read as a double: `1e999` became "Infinity", and a build number past 2^53
      // (1733212345678901234) became 1733212345678901200, so the exact expected value mismatched
      // and a different number verified. Such a number is no version we can read exactly.
      if (typeof value === "number" && (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value)))) {
        return fail("not-a-version", `field '${source.path}' is a number JSON readers cannot hold exactly (past 2^53 or not finite): report the version as a string`);
      }
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
        return found(String(value), `field ${source.path}`);
      }
      return fail("not-a-version", `field '${source.path}' is ${value === null ? "null" : typeof value}, not a version`);
    }
  }
}

/** Resolves a dotted path (`build.sha`, `items.0.v`) or a JSON pointer (`/build/sha`, RFC 6901). */
export function readPath(json: unknown, path: string): unknown {
  const segments = path.startsWith("/")
    ? path.slice(1).split("/").map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
    : path === "" ? [] : path.split(".");
  let node: unknown = json;
  for (const segment of segments) {
    if (node === null || typeof node !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function fail(code: ProbeFailureCode, reason: string): ProbeOutcome {
  return { kind: "unreachable", code, reason };
}
