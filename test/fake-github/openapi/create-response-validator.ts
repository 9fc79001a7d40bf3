/**
 * Checks responses against the trimmed OpenAPI description with ajv, so a fake that drifts from
 * GitHub's shapes fails a test. Reusable by any test that talks to the fake through Octokit.
 *
 * @example
 * const validator = createResponseValidator();
 * const problems = validator.validate("GET /repos/{owner}/{repo}/issues/{issue_number}", 200, body);
 */
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { Octokit } from "@octokit/core";

type JsonObject = Record<string, unknown>;

export interface ResponseViolation {
  route: string;
  status: number;
  errors: string[];
}

export interface ResponseValidator {
  /** Problems of `body` as the `status` response of `route` (`"GET /repos/{owner}/{repo}"`); [] when it conforms. */
  validate(route: string, status: number, body: unknown): string[];
  /** True when the trimmed spec describes this operation. */
  knows(route: string): boolean;
  /** Checks every response an Octokit receives (successes and errors); read `violations` afterwards. */
  attach(octokit: Pick<Octokit, "hook">): void;
  readonly violations: readonly ResponseViolation[];
  /** Responses checked through `attach`. */
  readonly checked: number;
}

const require = createRequire(import.meta.url);

/** The committed trimmed spec. */
export function loadTrimmedSpec(): JsonObject {
  return require("./api.github.com.trimmed.json") as JsonObject;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

// ajv-formats is CommonJS with a default export.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => void;

/**
 * OpenAPI 3.0's `nullable: true` in JSON Schema terms, which ajv needs: `type: [t, "null"]`, or an
 * `anyOf` with `{type: "null"}` when there is no `type` (a `$ref` or `allOf` marked nullable).
 */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (typeof node !== "object" || node === null) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = toJsonSchema(value);
  if (!("nullable" in out) || typeof out.nullable !== "boolean") return out;
  const nullable = out.nullable;
  delete out.nullable;
  if (!nullable) return out;
  if (typeof out.type === "string") {
    out.type = [out.type, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
    return out;
  }
  return { anyOf: [out, { type: "null" }] };
}

export function createResponseValidator(spec: JsonObject = loadTrimmedSpec()): ResponseValidator {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(toJsonSchema(spec) as JsonObject, "spec");
  const compiled = new Map<string, ValidateFunction | null>();
  const violations: ResponseViolation[] = [];
  let checked = 0;
  const paths = spec.paths as Record<string, Record<string, JsonObject>>;
  const components = spec.components as Record<string, Record<string, JsonObject>>;

  /** JSON pointer (inside "spec") of the schema of one response, or null when it has no JSON body. */
  const schemaPointer = (route: string, status: number): string | null | undefined => {
    const [method = "", pattern = ""] = route.split(" ");
    const operation = paths[pattern]?.[method.toLowerCase()];
    if (operation === undefined) return undefined;
    const responses = operation.responses as Record<string, JsonObject>;
    const code = String(status);
    let response = responses[code] ?? responses.default;
    if (response === undefined) return undefined;
    let base = `#/paths/${escapePointer(pattern)}/${method.toLowerCase()}/responses/${code in responses ? code : "default"}`;
    const ref = response.$ref;
    if (typeof ref === "string") {
      const name = ref.split("/").pop() ?? "";
      response = components.responses?.[name] ?? {};
      base = `#/components/responses/${escapePointer(name)}`;
    }
    const content = response.content as Record<string, JsonObject> | undefined;
    const type = content === undefined ? undefined : Object.keys(content).find((t) => t.includes("json"));
    if (type === undefined) return null;
    return `${base}/content/${escapePointer(type)}/schema`;
  };

  const validate = (route: string, status: number, body: unknown): string[] => {
    const key = `${route} ${status}`;
    if (!compiled.has(key)) {
      let pointer = schemaPointer(route, status);
      // GitHub answers 404 (a basic error) for any resource that does not exist, also where its
      // description lists no 404 (Get an environment lists only 200): hold it to that shape.
      if (pointer === undefined && status === 404) pointer = "#/components/schemas/basic-error";
      if (pointer === undefined) return [`the spec has no ${status} response for ${route}`];
      compiled.set(key, pointer === null ? null : ajv.compile({ $ref: `spec${pointer}` }));
    }
    const fn = compiled.get(key);
    if (fn === null || fn === undefined) return body === undefined || body === "" || body === null ? [] : [`${route} ${status} has no body in the spec`];
    if (fn(body)) return [];
    return (fn.errors ?? []).slice(0, 20).map((e) => `${e.instancePath || "(root)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`);
  };

  const knows = (route: string): boolean => {
    const [method = "", pattern = ""] = route.split(" ");
    return paths[pattern]?.[method.toLowerCase()] !== undefined;
  };

  const record = (route: string, status: number, body: unknown): void => {
    if (!knows(route)) return;
    checked++;
    const errors = validate(route, status, body);
    if (errors.length > 0) violations.push({ route, status, errors });
  };

  return {
    validate,
    knows,
    get violations() {
      return violations;
    },
    get checked() {
      return checked;
    },
    attach(octokit) {
      octokit.hook.wrap("request", async (request, options) => {
        const route = `${options.method} ${options.url}`;
        try {
          const response = await request(options);
          record(route, response.status, response.data);
          return response;
        } catch (error) {
          const e = error as { status?: number; response?: { data?: unknown } };
          if (typeof e.status === "number" && e.status !== 304) record(route, e.status, e.response?.data);
          throw error;
        }
      });
    },
  };
}
