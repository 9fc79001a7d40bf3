import type { Octokit } from "@octokit/rest";
import type { Clock } from "../../../core/engine/clock.js";
import type { Journal } from "../../../core/journal/journal-event.js";
import type { TickGitHub } from "./tick-github.js";

export interface RepoTickerOptions {
  readonly owner: string;
  readonly repo: string;
  /** The App's bot login (`bosun[bot]`): only what it wrote (records, comments, check runs, runs) is believed. */
  readonly botLogin: string;
  readonly defaultBranch: string;
  /** This writer's holder name (a replica, an Action run). */
  readonly holder: string;
  readonly clock: Clock;
  readonly journal: Journal;
  /** A user-to-server client for `assign` to Copilot. */
  readonly copilot?: Octokit;
  /** See `OctokitTickOptions.gateHeardWaitMs` (default 0: a verdict is read when a head is first met). */
  readonly gateHeardWaitMs?: number;
  /** The reads and writes (default: over the Octokit given). */
  readonly github?: TickGitHub;
  /** How many times a tick decides again after losing its batch to another writer (default 3). */
  readonly attempts?: number;
  /**
   * A tick set off by a webhook (`tick(…, { heard: true })`) first waits a random moment up to
   * this long (default 0): replicas that heard the same event then gather one after another, and
   * the later ones see what the first wrote instead of planning the same batch (docs/scheduling.md,
   * "Replicas at the same moment"). Timed ticks never wait.
   */
  readonly heardJitterMs?: number;
  /** The wait (default: a timer) and the draw in [0, 1) (default `Math.random`), replaceable for tests. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

/** How a tick came about. */
export interface TickCause {
  /**
   * Set off by a webhook that other replicas may have heard at the same moment: the tick starts at
   * a jittered moment (`heardJitterMs`) and sees whether its batch is still current before writing it.
   */
  readonly heard?: boolean;
  /** Told as the tick starts to read GitHub (after its wait): what happens from then on is for the next tick. */
  readonly onGather?: () => void;
}
