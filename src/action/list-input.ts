import type { ActionIo } from "./action-io.js";

/** An input's entries, one a line or comma-separated, blanks and `#` comments dropped. */
export function listInput(io: ActionIo, name: string): string[] {
  return io.input(name).split(/\r?\n|,/).map((s) => s.trim()).filter((s) => s !== "" && !s.startsWith("#"));
}
