import type { Stop } from "../stop/stop.js";
import { blocked, done, failed } from "../stop/stop.js";

/**
 * `/bosun land <ok|retry|refuse|human> <reason>` on its own first line: an operator lands an item
 * by hand. Anything else is not a command (undefined).
 */
export function parseLandCommand(body: string): { readonly stop: Stop; readonly verb: string } | undefined {
  const first = body.split(/\r?\n/).find((l) => l.trim() !== "")?.trim() ?? "";
  const m = /^\/bosun\s+land\s+(ok|retry|refuse|human)\b\s*(.*)$/i.exec(first);
  if (m === null) return undefined;
  const verb = (m[1] ?? "").toLowerCase();
  const reason = (m[2] ?? "").trim() || "landed by hand";
  const stop = verb === "ok" ? done(reason) : verb === "retry" ? failed("retry", reason) : verb === "refuse" ? failed("refuse", reason) : blocked(reason);
  return { stop, verb };
}
