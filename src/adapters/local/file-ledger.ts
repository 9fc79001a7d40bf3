import { randomBytes } from "node:crypto";
import { link, mkdir, open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { ToolResult } from "../../core/agent-loop/agent-tool.js";
import type { Ledger } from "../../core/agent-loop/ledger.js";

// Keys are SHA-256 hex; anything else could name a path outside the ledger directory.
const KEY = /^[0-9a-f]{64}$/;

const entrySchema = z.object({
  v: z.literal(1),
  key: z.string(),
  result: z.union([
    z.object({ ok: z.literal(true), content: z.string() }),
    z.object({ ok: z.literal(false), error: z.string() }),
  ]),
});

/** A ledger entry that cannot be read back: the ledger no longer knows whether a write ran. */
export class LedgerCorruptError extends Error {
  override readonly name = "LedgerCorruptError";
}

/**
 * A ledger of one file per key (`<dir>/<key>.json`). A put writes a temporary file, flushes it to
 * disk and links it into place, so a crash leaves either no entry or a whole one, never half.
 * The link (unlike a rename) fails when the entry exists, so the first put wins even when two
 * processes race on one key.
 */
export function createFileLedger(dir: string): Ledger {
  const pathOf = (key: string): string => {
    if (!KEY.test(key)) throw new RangeError("ledger key must be 64 lowercase hex characters");
    return join(dir, `${key}.json`);
  };
  return {
    async get(key) {
      const path = pathOf(key);
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw err;
      }
      const parsed = entrySchema.safeParse(safeJson(text));
      if (!parsed.success || parsed.data.key !== key) throw new LedgerCorruptError(`ledger entry ${path} is not a valid entry`);
      return parsed.data.result as ToolResult;
    },
    async put(key, result) {
      const path = pathOf(key);
      await mkdir(dir, { recursive: true });
      const temp = join(dir, `.${key}.${randomBytes(6).toString("hex")}.tmp`);
      const file = await open(temp, "wx");
      try {
        await file.writeFile(`${JSON.stringify({ v: 1, key, result })}\n`, "utf8");
        await file.sync();
      } finally {
        await file.close();
      }
      try {
        await link(temp, path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      } finally {
        await rm(temp, { force: true });
      }
      await syncDir(dir);
    },
  };
}

/** Flushes the directory so the new name itself survives a power loss, where the OS allows it. */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms (Windows) cannot open a directory; the entry is still whole, only less durable.
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
