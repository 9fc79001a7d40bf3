import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { BudgetCap } from "../../core/budget/budget-cap.js";
import type { CapRoom } from "../../core/budget/cap-room.js";
import { SpendBook } from "../../core/budget/spend-book.js";
import type { ReserveRequest, ReserveResult, SpendLedger } from "../../core/budget/spend-ledger.js";

/** The ledger file cannot be read back: nobody knows what was spent, so nothing is dispatched on it. */
export class SpendLedgerError extends Error {
  override readonly name = "SpendLedgerError";
}

const entrySchema = z.strictObject({
  ticket: z.string().min(1),
  item: z.string(),
  pool: z.string(),
  at: z.number().int().nonnegative(),
  micros: z.number().int().nonnegative(),
  settled: z.boolean(),
});
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Version 1 kept every run's entry; version 2 keeps the runs in flight and each day's settled spend. */
const fileSchema = z.discriminatedUnion("v", [
  z.strictObject({ v: z.literal(1), entries: z.array(entrySchema) }),
  z.strictObject({
    v: z.literal(2),
    reservations: z.array(entrySchema.omit({ settled: true })),
    spent: z.array(z.strictObject({ pool: z.string(), day: z.string().regex(DAY, "must be a UTC date, 2026-12-03"), micros: z.number().int().nonnegative() })),
  }),
]);

/** Reservations and days older than this are dropped when the ledger is written: past every window a cap covers. */
const KEEP_MS = 8 * 86_400_000;
/** A lock older than this was left by a drain that died holding it (a write takes milliseconds). */
const STALE_LOCK_MS = 30_000;
/** How long a drain waits for the lock before it says the ledger is unavailable. */
const LOCK_WAIT_MS = 20_000;

export interface FileSpendLedgerOptions {
  /** The state folder: the ledger is `<state>/budget/ledger.json`. */
  readonly stateDir: string;
  readonly caps: readonly BudgetCap[];
  /** Names this drain's tickets: unique per process. */
  readonly holder: string;
}

/**
 * The spend ledger of the local drain, in the state folder, shared by every drain over it. Every
 * change happens under one lock file (exclusive creation, as claims are taken): read the ledger,
 * apply the change with the same rule the step used, write a temporary file, flush it and rename
 * it into place. A crash leaves the old ledger or the new one, never half of either; a reader
 * without the lock sees one whole ledger. A lock whose holder died is broken after STALE_LOCK_MS.
 */
export class FileSpendLedger implements SpendLedger {
  private readonly dir: string;
  private readonly path: string;
  private readonly lockPath: string;
  private next = 0;

  constructor(private readonly options: FileSpendLedgerOptions) {
    this.dir = join(options.stateDir, "budget");
    this.path = join(this.dir, "ledger.json");
    this.lockPath = join(this.dir, "ledger.lock");
  }

  async rooms(now: number): Promise<readonly CapRoom[]> {
    return (await this.read()).rooms(this.options.caps, now);
  }

  async reserve(request: ReserveRequest, now: number): Promise<ReserveResult> {
    const ticket = `${this.options.holder}:${request.item}:${++this.next}`;
    return this.change(now, (book) => {
      const hold = book.reserveWithin(this.options.caps, { ticket, item: request.item, pool: request.pool, at: now, micros: request.micros });
      const rooms = book.rooms(this.options.caps, now);
      return { write: hold === undefined, result: hold === undefined ? { ok: true as const, ticket, rooms } : { ok: false as const, hold, rooms } };
    });
  }

  async settle(ticket: string, reported: number | undefined, now: number): Promise<readonly CapRoom[]> {
    return this.change(now, (book) => ({ write: book.settle(ticket, reported), result: book.rooms(this.options.caps, now) }));
  }

  async cancel(ticket: string, now: number): Promise<readonly CapRoom[]> {
    return this.change(now, (book) => ({ write: book.cancel(ticket), result: book.rooms(this.options.caps, now) }));
  }

  private async change<T>(now: number, apply: (book: SpendBook) => { write: boolean; result: T }): Promise<T> {
    await mkdir(this.dir, { recursive: true });
    const release = await this.lock();
    try {
      const book = await this.read();
      const { write, result } = apply(book);
      if (write) {
        book.prune(now - KEEP_MS);
        await this.write(book);
      }
      return result;
    } finally {
      await release();
    }
  }

  private async read(): Promise<SpendBook> {
    return (await readSpendBook(this.options.stateDir)) ?? new SpendBook();
  }

  private async write(book: SpendBook): Promise<void> {
    const temp = join(this.dir, `.ledger.${randomBytes(6).toString("hex")}.tmp`);
    const file = await open(temp, "wx");
    try {
      const reservations = book.reservations().map(({ ticket, item, pool, at, micros }) => ({ ticket, item, pool, at, micros }));
      const spent = book.spentByDay().map((d) => ({ pool: d.pool, day: new Date(d.day).toISOString().slice(0, 10), micros: d.micros }));
      await file.writeFile(`${JSON.stringify({ v: 2, reservations, spent })}\n`, "utf8");
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, this.path);
  }

  /** Takes the ledger's lock (exclusive creation), waiting while another drain holds it. */
  private async lock(): Promise<() => Promise<void>> {
    const started = Date.now();
    for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
      try {
        const handle = await open(this.lockPath, "wx");
        await handle.close();
        return () => rm(this.lockPath, { force: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      const age = await stat(this.lockPath).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      // Its holder died between taking and leaving it: a write takes milliseconds, not this long.
      if (age > STALE_LOCK_MS) await rm(this.lockPath, { force: true });
      else if (Date.now() - started > LOCK_WAIT_MS) throw new SpendLedgerError(`${this.lockPath} has been held for ${LOCK_WAIT_MS / 1000}s: another drain is stuck on the spend ledger`);
      await new Promise((resolve) => setTimeout(resolve, wait + Math.random() * wait));
    }
  }
}

/**
 * The spend book of a state folder as its ledger holds it now (no lock: the ledger is replaced
 * whole by a rename), or undefined when no drain under a budget has written one.
 */
export async function readSpendBook(stateDir: string): Promise<SpendBook | undefined> {
  const path = join(stateDir, "budget", "ledger.json");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SpendLedgerError(`${path} is not JSON: what was spent is unknown; fix or remove it`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) throw new SpendLedgerError(`${path} is not a spend ledger (${parsed.error.issues[0]?.message ?? "invalid"}): what was spent is unknown; fix or remove it`);
  const data = parsed.data;
  if (data.v === 1) return new SpendBook(data.entries);
  return new SpendBook(
    data.reservations.map((r) => ({ ...r, settled: false })),
    data.spent.map((d) => ({ pool: d.pool, day: Date.parse(`${d.day}T00:00:00Z`), micros: d.micros })),
  );
}
