/**
 * Writes `api.github.com.trimmed.json`: GitHub's OpenAPI description cut down to the operations the
 * fake serves and the components they reference, without examples or long prose.
 *
 *   npm i --prefix <somewhere-outside-the-project> @octokit/openapi@23
 *   npx tsx test/fake-github/openapi/generate-trimmed-spec.ts <somewhere>/node_modules/@octokit/openapi/generated/api.github.com.json
 *
 * The spec is 13 MB; never import `@octokit/openapi` itself (its index loads every variant).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { restRoutes } from "../all-routes.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Keys dropped everywhere they are keywords (not property names): they are prose and examples, not shape. */
const DROP = new Set(["examples", "example", "x-github", "x-github-breaking-changes", "x-github-releases", "externalDocs"]);

function strip(node: Json, keyword = true): Json {
  if (Array.isArray(node)) return node.map((n) => strip(n));
  if (node === null || typeof node !== "object") return node;
  const out: JsonObject = {};
  for (const key of Object.keys(node).sort()) {
    const value = node[key] as Json;
    if (keyword && DROP.has(key)) continue;
    if (keyword && key === "description" && typeof value === "string") continue;
    // Under `properties` the keys are names (a property may be called "description").
    out[key] = key === "properties" && keyword ? mapValues(value) : strip(value);
  }
  return out;
}

function mapValues(node: Json): Json {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
  const out: JsonObject = {};
  for (const key of Object.keys(node).sort()) out[key] = strip(node[key] as Json);
  return out;
}

function collectRefs(node: Json, into: Set<string>): void {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, into));
  else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") into.add(value);
      else collectRefs(value, into);
    }
  }
}

export function trimSpec(spec: JsonObject, operations: ReadonlyArray<{ method: string; pattern: string }>, version: string): JsonObject {
  const sourcePaths = spec.paths as JsonObject;
  const sourceComponents = spec.components as Record<string, JsonObject>;
  const paths: Record<string, JsonObject> = {};
  for (const { method, pattern } of operations) {
    const item = sourcePaths[pattern] as JsonObject | undefined;
    const operation = item?.[method.toLowerCase()];
    if (item === undefined || operation === undefined) throw new Error(`GitHub's spec has no ${method} ${pattern}`);
    paths[pattern] ??= item.parameters === undefined ? {} : { parameters: item.parameters };
    (paths[pattern] as JsonObject)[method.toLowerCase()] = operation;
  }
  const components: Record<string, JsonObject> = {};
  const seen = new Set<string>();
  const queue = new Set<string>();
  collectRefs(paths as Json, queue);
  while (queue.size > 0) {
    const [ref] = queue as Set<string> & Iterable<string>;
    queue.delete(ref as string);
    if (ref === undefined || seen.has(ref)) continue;
    seen.add(ref);
    const match = /^#\/components\/([^/]+)\/(.+)$/.exec(ref);
    if (match === null) throw new Error(`unexpected $ref ${ref}`);
    const [, group = "", name = ""] = match;
    if (group === "examples") continue;
    const target = sourceComponents[group]?.[name];
    if (target === undefined) throw new Error(`dangling $ref ${ref}`);
    (components[group] ??= {})[name] = target;
    collectRefs(target, queue);
  }
  const sortedPaths: JsonObject = {};
  for (const key of Object.keys(paths).sort()) sortedPaths[key] = paths[key] as Json;
  return {
    openapi: spec.openapi as Json,
    info: { title: "GitHub REST API (trimmed for Bosun's fake GitHub)", version, "x-trimmed-from": `@octokit/openapi@${version} generated/api.github.com.json` },
    paths: strip(sortedPaths),
    components: strip(components as Json),
  };
}

function main(argv: string[]): void {
  const specPath = argv[2];
  if (specPath === undefined) {
    process.stderr.write("usage: tsx generate-trimmed-spec.ts <path to @octokit/openapi/generated/api.github.com.json>\n");
    process.exit(2);
  }
  const spec = JSON.parse(readFileSync(specPath, "utf8")) as JsonObject;
  let version = "unknown";
  try {
    version = (JSON.parse(readFileSync(join(dirname(specPath), "..", "package.json"), "utf8")) as { version: string }).version;
  } catch {
    // The spec was copied out of its package: the version stays unknown.
  }
  // REST routes only: `POST /graphql` has no operation in the REST description.
  const trimmed = trimSpec(spec, restRoutes, version);
  const out = join(dirname(fileURLToPath(import.meta.url)), "api.github.com.trimmed.json");
  writeFileSync(out, `${JSON.stringify(trimmed, null, 1)}\n`);
  process.stdout.write(`wrote ${Object.keys(trimmed.paths as JsonObject).length} paths, ${restRoutes.length} operations\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv);
