import { mkdtemp, mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What a stand-in does for one attempt at one item. */
export interface Scenario {
  readonly outcome?: string;
  readonly edits?: Record<string, string>;
  /** JSON the "model" writes to $BOSUN_RESULT (default: `{"kind":"done"}` on success, except aider); null writes nothing. */
  readonly result?: unknown;
  readonly exit?: number;
  readonly sleepMs?: number;
  /** Text the stand-in writes to stderr before it ends (e.g. a secret it should never have shown). */
  readonly stderr?: string;
  /** What the run costs in US dollars, where the tool reports money (claude's total_cost_usd). */
  readonly usd?: number;
}

/** One recorded start of a stand-in: its arguments, environment, working folder and prompt. */
export interface StandInRecord {
  readonly tool: string;
  readonly item: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly prompt: string;
}

const TOOLS = ["claude", "codex", "aider", "openhands"] as const;
const HERE = import.meta.dirname;

/**
 * A folder to put first on PATH, holding `claude`, `codex`, `aider` and `openhands` (links to the
 * stand-ins here) and their scenarios by tool and item ("*" for any item).
 */
export async function standInBin(scenarios: Partial<Record<(typeof TOOLS)[number], Record<string, Scenario | Scenario[]>>>): Promise<{ dir: string; records(): Promise<StandInRecord[]> }> {
  const dir = await mkdtemp(join(tmpdir(), "bosun-agents-bin-"));
  for (const tool of TOOLS) await symlink(join(HERE, `${tool}.mjs`), join(dir, tool));
  await writeFile(join(dir, "scenario.json"), JSON.stringify(scenarios));
  await mkdir(join(dir, "records"));
  return {
    dir,
    async records() {
      const names = (await readdir(join(dir, "records"))).sort();
      return Promise.all(names.map(async (n) => JSON.parse(await readFile(join(dir, "records", n), "utf8")) as StandInRecord));
    },
  };
}
