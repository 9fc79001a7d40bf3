import { normalizeLogin } from "../../../core/separation/identity.js";
import { createConditionalGet } from "../conditional-get.js";
import type { ConditionalGet } from "../conditional-get.js";
import type { OctokitTickOptions } from "./octokit-tick-options.js";

/**
 * What the tick's reads and writes over Octokit share, made once per repository: the parts that
 * keep their own caches (`octokit-issue-reads.ts`, `octokit-pull-reads.ts`, `octokit-tick-writes.ts`)
 * must see one ETag cache and one record of the runs this process dispatched.
 */
export interface OctokitTickShared {
  /** Every conditional read goes through one ETag cache: a key read by one part is a 304 for another. */
  readonly conditional: ConditionalGet;
  /** The App's bot login, normalized: its comments and check runs are Bosun's. */
  readonly bot: string;
  /** `item:epoch` → the run this process's dispatch started: written by the dispatches, read by `knownRunId`. */
  readonly runIds: Map<string, number>;
}

export function octokitTickShared(options: OctokitTickOptions): OctokitTickShared {
  return { conditional: createConditionalGet(), bot: normalizeLogin(options.botLogin), runIds: new Map() };
}
