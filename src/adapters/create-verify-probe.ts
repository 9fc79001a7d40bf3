import type { Probe } from "../core/verify/probe-outcome.js";
import type { VerifyTargetSpec } from "../core/verify/verify-options.js";
import { createHttpProbe } from "./http/http-probe.js";
import { createCommandProbe } from "./local/command-probe.js";

/** What the probes may need from their environment; all optional, real defaults otherwise. */
export interface VerifyProbeEnv {
  readonly fetch?: typeof globalThis.fetch;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** The probe for a validated target: an HTTP GET for a URL, a shell run for a command. */
export function createVerifyProbe(target: VerifyTargetSpec, env: VerifyProbeEnv = {}): Probe {
  if (target.kind === "url") {
    return createHttpProbe({ url: target.url, source: target.source, ...(env.fetch === undefined ? {} : { fetch: env.fetch }) });
  }
  return createCommandProbe({
    command: target.command,
    source: target.source,
    ...(env.cwd === undefined ? {} : { cwd: env.cwd }),
    ...(env.env === undefined ? {} : { env: env.env }),
  });
}
