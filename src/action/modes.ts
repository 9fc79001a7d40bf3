import type { ActionMode } from "./action-io.js";

/** Every mode of the Action, loaded lazily; a mode lives in `modes/<name>.ts` and default-exports an ActionMode. */
export const modes: Readonly<Record<string, () => Promise<ActionMode>>> = {
  gate: async () => (await import("./modes/gate.js")).default,
  separation: async () => (await import("./modes/separation.js")).default,
  verify: async () => (await import("./modes/verify.js")).default,
  schedule: async () => (await import("./modes/schedule.js")).default,
  work: async () => (await import("./modes/work.js")).default,
};
