import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { BudgetCap } from "../../core/budget/budget-cap.js";
import type { RecordedCaps } from "../../core/budget/recorded-caps.js";
import { fromMicros, toMicros } from "../../core/budget/budget-cap.js";

export type CapsRecord = RecordedCaps;

const usd = z.number().finite().nonnegative();
const recordSchema = z.strictObject({
  v: z.literal(1),
  holder: z.string(),
  at: z.iso.datetime(),
  caps: z.array(z.strictObject({ name: z.string().min(1), window: z.enum(["day", "week"]), usd, pool: z.string().optional() })),
  item_usd: usd.optional(),
});

const pathOf = (stateDir: string): string => join(stateDir, "budget", "caps.json");

/**
 * Records the caps a drain is about to apply (`<state>/budget/caps.json`), so that `bosun stats`
 * can say what the spend counts against. Written whole (a temporary file renamed into place); the
 * last drain that started under a budget is the one recorded.
 */
export async function recordBudgetCaps(stateDir: string, record: CapsRecord): Promise<void> {
  const dir = join(stateDir, "budget");
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.caps.${randomBytes(6).toString("hex")}.tmp`);
  const json = {
    v: 1,
    holder: record.holder,
    at: new Date(record.at).toISOString(),
    caps: record.caps.map((c) => ({ name: c.name, window: c.window, usd: fromMicros(c.micros), ...(c.pool === undefined ? {} : { pool: c.pool }) })),
    ...(record.itemCap === undefined ? {} : { item_usd: fromMicros(record.itemCap) }),
  };
  const file = await open(temp, "wx");
  try {
    await file.writeFile(`${JSON.stringify(json)}\n`, "utf8");
  } finally {
    await file.close();
  }
  await rename(temp, pathOf(stateDir));
}

/** The caps recorded in a state folder: undefined when none were, a problem when the file is not a record. */
export async function readBudgetCaps(stateDir: string): Promise<{ record?: CapsRecord; problem?: string }> {
  const path = pathOf(stateDir);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    return { problem: `${path}: ${(err as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: `${path} is not JSON` };
  }
  const parsed = recordSchema.safeParse(json);
  if (!parsed.success) return { problem: `${path} is not a caps record (${parsed.error.issues[0]?.message ?? "invalid"})` };
  const d = parsed.data;
  const caps = d.caps.map((c): BudgetCap => (c.pool === undefined ? { name: c.name, window: c.window, micros: toMicros(c.usd) } : { name: c.name, window: c.window, micros: toMicros(c.usd), pool: c.pool }));
  return { record: { holder: d.holder, at: Date.parse(d.at), caps, ...(d.item_usd === undefined ? {} : { itemCap: toMicros(d.item_usd) }) } };
}
