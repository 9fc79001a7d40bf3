import { z } from "zod";
import { bosunConfigSchema } from "./bosun-config.js";

/** Where the committed schema is published: the `$schema` line of `.github/bosun.yml` names it. */
export const CONFIG_SCHEMA_URL = "https://raw.githubusercontent.com/bosun-dev/bosun/v1/schema/bosun-config.schema.json";

/**
 * The JSON Schema of `.github/bosun.yml`, generated from the zod schema the App validates with, so
 * an editor (yaml-language-server) flags what the App would refuse. It describes what a
 * maintainer writes (zod's input side: defaults optional, durations as text or seconds); the
 * App's checks the schema cannot say (a duration's unit) are left to `bosun config check`.
 */
export function configJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(bosunConfigSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    $id: CONFIG_SCHEMA_URL,
    title: "Bosun configuration (.github/bosun.yml)",
    description: "Generated from src/core/config/bosun-config.ts by `npm run schema`; do not edit by hand.",
    ...rest,
  };
}

/** The committed file's text: two-space JSON with a final newline. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
