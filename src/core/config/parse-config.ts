import { parseDocument } from "yaml";
import type { BosunConfig } from "./bosun-config.js";
import { bosunConfigSchema } from "./bosun-config.js";
import { yamlNestingProblem } from "../brief/yaml-depth.js";

/** One thing wrong with a configuration: the field (dotted path) and what is wrong. */
export interface ConfigProblem {
  readonly field: string;
  readonly message: string;
}

export type ConfigResult = { readonly ok: true; readonly config: BosunConfig } | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

/** Parses `.github/bosun.yml`; an empty file is the defaults. Every problem names its field. */
export function parseConfig(text: string): ConfigResult {
  if (text.length > 256 * 1024) return { ok: false, problems: [{ field: "(file)", message: "the configuration is larger than 256 KB" }] };
  const nesting = yamlNestingProblem(text);
  if (nesting !== undefined) return { ok: false, problems: [{ field: "(yaml)", message: `nested too deeply: ${nesting}` }] };
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return { ok: false, problems: doc.errors.map((e) => ({ field: "(yaml)", message: (e.message.split("\n")[0] ?? e.message).trim() })) };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 20 }) ?? {};
  } catch (err) {
    return { ok: false, problems: [{ field: "(yaml)", message: err instanceof Error ? err.message : String(err) }] };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { ok: false, problems: [{ field: "(root)", message: "the configuration must be a YAML mapping" }] };
  const parsed = bosunConfigSchema.safeParse(data);
  if (parsed.success) return { ok: true, config: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.flatMap((i) => {
      const at = i.path.map(String).join(".");
      // An unknown key is named where it is (`pools.default.sise`), one problem each.
      if (i.code === "unrecognized_keys") return i.keys.map((k) => ({ field: at === "" ? k : `${at}.${k}`, message: "unknown field" }));
      return [{ field: at === "" ? "(root)" : at, message: i.message }];
    }),
  };
}
