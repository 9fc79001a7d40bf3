import type { Octokit } from "@octokit/rest";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import { DEFAULT_CONFIG } from "../../core/config/bosun-config.js";
import type { ConfigProblem } from "../../core/config/parse-config.js";
import { parseConfig } from "../../core/config/parse-config.js";

export const CONFIG_PATH = ".github/bosun.yml";

/**
 * Reads `.github/bosun.yml` at a ref (the default branch when none): never from a pull request's
 * tree. A missing file is the defaults; a broken one is its problems, by field.
 */
export async function readBosunConfig(octokit: Octokit, owner: string, repo: string, ref?: string): Promise<{ config: BosunConfig; problems: readonly ConfigProblem[] } | { config?: undefined; problems: readonly ConfigProblem[] }> {
  let text: string;
  try {
    const { data } = await octokit.rest.repos.getContent({ owner, repo, path: CONFIG_PATH, ...(ref === undefined ? {} : { ref }) });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) return { problems: [{ field: "(file)", message: `${CONFIG_PATH} is not a file` }] };
    text = Buffer.from(data.content, "base64").toString("utf8");
  } catch (err) {
    if (typeof err === "object" && err !== null && "status" in err && (err as { status: number }).status === 404) return { config: DEFAULT_CONFIG, problems: [] };
    throw err;
  }
  const parsed = parseConfig(text);
  return parsed.ok ? { config: parsed.config, problems: [] } : { problems: parsed.problems };
}
