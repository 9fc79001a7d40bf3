import type { BudgetCap, BudgetWindow } from "./budget-cap.js";
import { capCovers } from "./budget-cap.js";

/** A cap in force now, with what its current window has used: spent plus reserved by runs in flight. */
export interface CapRoom {
  readonly cap: BudgetCap;
  /** Micro-dollars spent and reserved in the window holding now. */
  readonly used: number;
  /** When that window ends (ms): the cap starts again from nothing. */
  readonly resetsAt: number;
}

/** Why an item is not dispatched now although its pool has room: a cap it does not fit under. */
export interface BudgetHold {
  /** The cap's name (`--budget-usd`, `budgets.fleet.day_usd`). */
  readonly cap: string;
  readonly window: BudgetWindow;
  /** The pool it caps; undefined: the fleet. */
  readonly pool?: string;
  /** What the item would reserve, and what the cap has left (micro-dollars). */
  readonly reserve: number;
  readonly left: number;
  readonly resetsAt: number;
}

/**
 * The first cap covering `pool` that `micros` more would take past, counting `extra[i]` micro-dollars
 * reserved beyond `rooms[i].used` (this step's own claims); undefined when it fits under all.
 */
export function capExceeded(rooms: readonly CapRoom[], pool: string, micros: number, extra?: readonly number[]): BudgetHold | undefined {
  for (let i = 0; i < rooms.length; i++) {
    const room = rooms[i] as CapRoom;
    if (!capCovers(room.cap, pool)) continue;
    const used = room.used + (extra?.[i] ?? 0);
    if (used + micros > room.cap.micros) {
      const hold = { cap: room.cap.name, window: room.cap.window, reserve: micros, left: Math.max(0, room.cap.micros - used), resetsAt: room.resetsAt };
      return room.cap.pool === undefined ? hold : { ...hold, pool: room.cap.pool };
    }
  }
  return undefined;
}

/** Whether any cap counts this pool's spend. */
export function anyCapCovers(rooms: readonly CapRoom[], pool: string): boolean {
  return rooms.some((r) => capCovers(r.cap, pool));
}
