import type { JournalEvent } from "./journal-event.js";

/**
 * One human line per journal event, as `bosun drain` prints them: `CLAIM x`, `DISPATCH x`,
 * `LAND x ok=true`, `RELEASE x`, `IDLE — stop`. Where a line says more (a failed land, a denial, a
 * reclaim), the details follow after two spaces; the journal has everything.
 */
export function traceLine(event: JournalEvent): string {
  switch (event.event) {
    case "CLAIM":
      return `CLAIM ${event.item}`;
    case "DENY":
      return `DENY ${event.item} ${event.reason}  ${event.detail}`;
    case "DISPATCH":
      return `DISPATCH ${event.item}`;
    case "LAND": {
      const base = `LAND ${event.item} ok=${event.fenced === undefined ? String(event.ok) : "false"}`;
      if (event.fenced !== undefined) return `${base}  refused (${event.fenced})`;
      const stop = [event.stop.kind, event.stop.limit, event.failure].filter((x) => x !== undefined).join("/");
      return event.ok ? base : `${base}  ${stop} -> ${event.disposition}${event.stop.reason === undefined ? "" : `: ${event.stop.reason}`}`;
    }
    case "GATE":
      return `GATE ${event.item} ${event.verdict}  class ${event.class}, ${event.sha.slice(0, 12)}`;
    case "HOLD":
      return `HOLD ${event.item} ${event.reason}  ${event.detail}`;
    case "RELEASE":
      return `RELEASE ${event.item}`;
    case "RECLAIM":
      return `RECLAIM ${event.item}  from ${event.from} (epoch ${event.epoch}, lease expired)`;
    case "IDLE":
      return "IDLE — stop";
  }
}
