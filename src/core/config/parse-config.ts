import type { BosunConfig } from "./bosun-config.js";
import { bosunConfigSchema } from "./bosun-config.js";
import { readGuardedYaml } from "../brief/read-guarded-yaml.js";

/** One thing wrong with a configuration: the field (dotted path) and what is wrong. */
export interface ConfigProblem {
  readonly field: string;
  readonly message: string;
}

export type ConfigResult = { readonly ok: true; readonly config: BosunConfig } | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

/** The largest configuration read (bytes; the text is checked in characters, which are fewer). */
export const MAX_CONFIG_BYTES = 256 * 1024;

/** Parses `.github/bosun.yml`; an empty file is the defaults. Every problem names its field. */
export function parseConfig(text: string): ConfigResult {
  if (text.length > MAX_CONFIG_BYTES) return { ok: false, problems: [{ field: "(file)", message: "the configuration is larger than 256 KB" }] };
  const read = readGuardedYaml(text);
  if (!read.ok) return { ok: false, problems: read.problems.map((p) => ({ field: "(yaml)", message: p.message })) };
  const data: unknown = read.data ?? {};
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
