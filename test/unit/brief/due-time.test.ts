/**
 * `due` is one instant whatever host reads it: a drain on a laptop in Tokyo and the App's server in
 * UTC must order the same briefs the same way. Seen before: a zone-less time was read in the host's
 * local time (`Date.parse`), so `2026-12-05T10:00` moved with the TZ of the machine.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { dueTime } from "../../../src/core/brief/due-time.js";

describe("dueTime", () => {
  it.each([
    ["2026-12-05", Date.UTC(2026, 11, 5, 23, 59, 59)],
    ["2026-12-05T10:00", Date.UTC(2026, 11, 5, 10, 0)],
    ["2026-12-05 10:00:30", Date.UTC(2026, 11, 5, 10, 0, 30)],
    ["2026-12-05T10:00:30.250", Date.UTC(2026, 11, 5, 10, 0, 30, 250)],
    ["2026-12-05T10:00Z", Date.UTC(2026, 11, 5, 10, 0)],
    ["2026-12-05T10:00+05:30", Date.UTC(2026, 11, 5, 4, 30)],
    ["2026-12-05T10:00-0800", Date.UTC(2026, 11, 5, 18, 0)],
  ])("%s is %d", (due, ms) => {
    expect(dueTime(due)).toBe(ms);
  });

  it("is the same instant in a process whose local zone is far from UTC", () => {
    const code = `import("./src/core/brief/due-time.ts").then((m) => console.log(JSON.stringify(["2026-12-05T10:00", "2026-12-05 10:00", "2026-12-05"].map(m.dueTime))))`;
    const out = (tz: string): string => execFileSync(process.execPath, ["--import", "tsx", "-e", code], { env: { ...process.env, TZ: tz }, encoding: "utf8" }).trim();
    expect(out("Asia/Tokyo")).toBe(out("UTC"));
    expect(out("America/Los_Angeles")).toBe(out("UTC"));
  });
});
