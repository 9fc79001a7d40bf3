/**
 * Per-stage wall time and GitHub requests of a whole-life test, measured from the fake's own
 * request log (by login), for reports: printed, never asserted (speed targets live in bench/).
 */
import type { FakeGitHub } from "../fake-github/create-fake-github.js";

export interface StageFigures {
  readonly stage: string;
  readonly ms: number;
  /** Requests in the stage by login (`bosun[bot]` is the App and every job with its token). */
  readonly requests: Readonly<Record<string, number>>;
}

export interface LifeMeter {
  /** Ends the current stage (if any) and starts `name`. */
  stage(name: string): void;
  /** Ends the current stage; answers every stage's figures. */
  finish(): StageFigures[];
  /** The figures as a table, one line per stage, then the totals. */
  table(): string;
}

export function createLifeMeter(fake: FakeGitHub): LifeMeter {
  const stages: StageFigures[] = [];
  let current: { name: string; started: number; seq: number } | undefined;
  const seq = () => fake.accounting.log.at(-1)?.seq ?? 0;
  const close = (): void => {
    if (current === undefined) return;
    const from = current.seq;
    const requests: Record<string, number> = {};
    for (const e of fake.accounting.log) if (e.seq > from) requests[e.login ?? "anonymous"] = (requests[e.login ?? "anonymous"] ?? 0) + 1;
    stages.push({ stage: current.name, ms: Math.round(performance.now() - current.started), requests });
    current = undefined;
  };
  return {
    stage(name) {
      close();
      current = { name, started: performance.now(), seq: seq() };
    },
    finish() {
      close();
      return stages;
    },
    table() {
      close();
      const logins = [...new Set(stages.flatMap((s) => Object.keys(s.requests)))].sort();
      const header = ["stage", "ms", ...logins].join("\t");
      const rows = stages.map((s) => [s.stage, String(s.ms), ...logins.map((l) => String(s.requests[l] ?? 0))].join("\t"));
      const total = ["total", String(stages.reduce((n, s) => n + s.ms, 0)), ...logins.map((l) => String(stages.reduce((n, s) => n + (s.requests[l] ?? 0), 0)))].join("\t");
      return [header, ...rows, total].join("\n");
    },
  };
}
