import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFileLedger, LedgerCorruptError } from "../../../src/adapters/local/file-ledger.js";
import { createMemoryLedger } from "../../support/doubles/memory-ledger.js";
import type { Ledger } from "../../../src/core/agent-loop/ledger.js";
import { idempotencyKey } from "../../../src/core/agent-loop/idempotency-key.js";

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "bosun-ledger-"));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const KEY = idempotencyKey("task", "write", { a: 1 });
const OTHER = idempotencyKey("task", "write", { a: 2 });

// One contract, run on every ledger adapter.
const adapters: [string, () => Promise<Ledger>][] = [
  ["memory", () => Promise.resolve(createMemoryLedger())],
  ["file", async () => createFileLedger(join(await tempDir(), "ledger"))],
];

describe.each(adapters)("ledger contract: %s", (_name, make) => {
  it("answers undefined for a key it never saw", async () => {
    expect(await (await make()).get(KEY)).toBeUndefined();
  });

  it("returns what was put, by key", async () => {
    const ledger = await make();
    await ledger.put(KEY, { ok: true, content: "first" });
    expect(await ledger.get(KEY)).toEqual({ ok: true, content: "first" });
    expect(await ledger.get(OTHER)).toBeUndefined();
  });

  it("keeps the first result when a key is put twice", async () => {
    const ledger = await make();
    await ledger.put(KEY, { ok: true, content: "first" });
    await ledger.put(KEY, { ok: true, content: "second" });
    expect(await ledger.get(KEY)).toEqual({ ok: true, content: "first" });
  });
});

describe("file ledger", () => {
  it("survives a restart: a new instance over the same directory answers from disk", async () => {
    const dir = await tempDir();
    await createFileLedger(dir).put(KEY, { ok: true, content: "pushed abc123" });
    expect(await createFileLedger(dir).get(KEY)).toEqual({ ok: true, content: "pushed abc123" });
  });

  it("leaves no temporary files behind, and one file per key", async () => {
    const dir = await tempDir();
    const ledger = createFileLedger(dir);
    await Promise.all([ledger.put(KEY, { ok: true, content: "a" }), ledger.put(KEY, { ok: true, content: "b" }), ledger.put(OTHER, { ok: true, content: "c" })]);
    expect((await readdir(dir)).sort()).toEqual([`${KEY}.json`, `${OTHER}.json`].sort());
  });

  it("ignores a temporary file a crash left behind", async () => {
    const dir = await tempDir();
    const ledger = createFileLedger(dir);
    await ledger.put(OTHER, { ok: true, content: "c" });
    await writeFile(join(dir, `.${KEY}.dead.tmp`), '{"v":1,"key":"');
    expect(await ledger.get(KEY)).toBeUndefined();
  });

  it("throws rather than guess when an entry is unreadable", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, `${KEY}.json`), "not json");
    await expect(createFileLedger(dir).get(KEY)).rejects.toThrow(LedgerCorruptError);
  });

  it("refuses a key that is not a SHA-256, so no key names a path outside its directory", async () => {
    await expect(createFileLedger(await tempDir()).get("../../etc/passwd")).rejects.toThrow(RangeError);
  });
});
