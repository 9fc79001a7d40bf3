import type { CliCommand } from "./cli-io.js";

/**
 * Every subcommand, loaded lazily so `bosun verify` does not pay for loading the drain engine.
 * A subcommand lives in `commands/<name>.ts` and default-exports a CliCommand.
 */
export const commands: Readonly<Record<string, () => Promise<CliCommand>>> = {
  drain: async () => (await import("./commands/drain.js")).default,
  brief: async () => (await import("./commands/brief.js")).default,
  gate: async () => (await import("./commands/gate.js")).default,
  verify: async () => (await import("./commands/verify.js")).default,
  stats: async () => (await import("./commands/stats.js")).default,
  replay: async () => (await import("./commands/replay.js")).default,
  trace: async () => (await import("./commands/trace.js")).default,
  config: async () => (await import("./commands/config.js")).default,
  init: async () => (await import("./commands/init.js")).default,
  doctor: async () => (await import("./commands/doctor.js")).default,
};
