/**
 * The one reclaim rule on the local face: a lapsed lease whose holder still runs is its to renew,
 * never another drain's to take (decide-step.ts decides the same on GitHub from the run's status).
 * A drain paused past its lease (a laptop lid, SIGSTOP, a clock jump) once had its item run a
 * second time, at once, by another drain on the same state folder.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileClaimStore } from "../../../src/adapters/local/file-claim-store.js";
import { holderLives, thisHolderProcess, type HolderProcess } from "../../../src/adapters/local/holder-process.js";
import { startBosun } from "../../support/run-bosun.js";
import { readText, waitFor } from "../../support/process-waits.js";

const T0 = Date.now();
const state = () => mkdtemp(join(tmpdir(), "bosun-liveness-"));

/** A child that sleeps until killed, as the process a claim names. */
async function sleeper(): Promise<{ holder: HolderProcess; kill(): Promise<void> }> {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  await new Promise((r) => child.once("spawn", r));
  const pid = child.pid ?? 0;
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const started = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
  return {
    holder: { host: hostname(), pid, started },
    kill: () => new Promise((r) => {
      child.once("exit", () => r());
      child.kill("SIGKILL");
    }),
  };
}

describe("a lapsed lease and its holder's life", () => {
  it("is not taken back while its holder runs, and is once the holder is gone", async () => {
    const dir = await state();
    const holder = await sleeper();
    const a = new FileClaimStore(dir, undefined, { self: holder.holder });
    const b = new FileClaimStore(dir);
    expect(await a.claim("task:x", "drain-a", 1000, T0)).toMatchObject({ granted: true });
    expect(await b.reclaimStale(T0 + 5000)).toEqual([]);
    expect(await b.claim("task:x", "drain-b", 1000, T0 + 5000)).toMatchObject({ granted: false, reason: "held" });
    await holder.kill();
    expect(await b.reclaimStale(T0 + 5000)).toMatchObject([{ key: "task:x", holder: "drain-a", epoch: 1 }]);
    expect(await b.claim("task:x", "drain-b", 1000, T0 + 5001)).toMatchObject({ granted: true, token: { epoch: 2 } });
  });

  it("a pid the kernel gave to another program since, or a holder on another host, shows no life", () => {
    const me = thisHolderProcess();
    expect(holderLives(me)).toBe(true);
    expect(holderLives({ ...me, started: `${me.started ?? ""}9` })).toBe(false);
    expect(holderLives({ ...me, host: `${me.host}-elsewhere` })).toBe(false);
    expect(holderLives({ ...me, pid: 0 })).toBe(false);
  });

  it("two drains on one folder: the first paused past its lease keeps its item; it ran once, landed by the first", async () => {
    const dir = await state();
    const ran = join(dir, "ran.log");
    const go = join(dir, "go");
    await writeFile(join(dir, "one.yml"), `goal: Do one thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n`);
    // The worker says it started, then waits for the test's word: the first drain is paused meanwhile.
    const worker = `echo "$BOSUN_ITEM by $BOSUN_EPOCH" >> ${ran}; while [ ! -e ${go} ]; do sleep 0.05; done`;
    const args = (holder: string) => ["drain", "--briefs", ".", "--state", join(dir, "state"), "--lease", "1s", "--holder", holder, "--run", worker];
    const first = startBosun(args("first"), { cwd: dir });
    await waitFor(() => readText(ran).includes("one by 1"));
    first.child.kill("SIGSTOP");
    try {
      // Well past the lease: the second drain finds it lapsed, its holder paused but alive.
      await new Promise((r) => setTimeout(r, 2500));
      const second = startBosun(args("second"), { cwd: dir });
      let seen = "";
      second.child.stdout?.on("data", (b: Buffer) => (seen += b.toString()));
      // The second drain found the item held by a lapsed lease; give it many polls to take it.
      await waitFor(() => seen.includes("another drain holds it"));
      await new Promise((r) => setTimeout(r, 3000));
      expect(readFileSync(ran, "utf8").trim().split("\n")).toEqual(["one by 1"]);
      first.child.kill("SIGCONT");
      await writeFile(go, "");
      const [a, b] = [await first.done, await second.done];
      expect(a.code, a.stdout + a.stderr).toBe(0);
      expect(b.code, b.stdout + b.stderr).toBe(0);
      expect(readFileSync(ran, "utf8").trim().split("\n")).toEqual(["one by 1"]);
      const journal = readFileSync(join(dir, "state", "journal.jsonl"), "utf8");
      expect(journal).not.toContain('"RECLAIM"');
      const events = journal.trim().split("\n").map((l) => JSON.parse(l) as { event: string; holder?: string; epoch?: number });
      expect(events.filter((e) => e.event === "CLAIM")).toMatchObject([{ holder: "first", epoch: 1 }]);
      expect(events.filter((e) => e.event === "LAND")).toMatchObject([{ epoch: 1 }]);
    } finally {
      first.child.kill("SIGCONT");
    }
  });
});
