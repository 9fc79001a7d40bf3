import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";

// The drain prints four lines an item. Written one by one, each was a system call and a wake-up of
// whatever reads the other end; a pipe into a benchmark or `grep` paid for it on every line.
describe("the drain's stdout", () => {
  it("goes out a turn at a time, not a line at a time, in order, and whole by the time the drain returns", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-stdout-"));
    await mkdir(join(dir, "briefs"));
    const ids = Array.from({ length: 40 }, (_, i) => `b${String(i).padStart(2, "0")}`);
    for (const id of ids) await writeFile(join(dir, "briefs", `${id}.yml`), `goal: Item ${id}.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n`);
    const writes: string[] = [];
    const sink = (to: string[]) => new Writable({ write: (c: Buffer | string, _e, cb) => (to.push(String(c)), cb()) });
    const err: string[] = [];
    const code = await main(["drain", "--dry-run", "--pool", "8"], { stdout: sink(writes), stderr: sink(err), stdin: new PassThrough(), env: {}, cwd: dir });
    expect(code).toBe(0);
    const lines = writes.join("").split("\n").filter((l) => l !== "");
    // Every event line and the summary are there, each item's in its order.
    for (const id of ids) {
      const at = (what: string) => lines.indexOf(`${what} ${id}${what === "LAND" ? " ok=true" : ""}`);
      expect(at("CLAIM")).toBeGreaterThanOrEqual(0);
      expect(at("DISPATCH")).toBeGreaterThan(at("CLAIM"));
    }
    expect(lines.filter((l) => l.startsWith("LAND ")).length).toBe(ids.length);
    expect(lines.at(-2)).toBe("Summary: 40 ran, 40 ok, 0 failed, 0 need a human.");
    // Far fewer writes than lines: many events land within one turn of the event loop.
    expect(lines.length).toBeGreaterThan(4 * ids.length);
    expect(writes.length).toBeLessThan(lines.length / 4);
  });
});
