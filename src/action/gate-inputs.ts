import type { ActionIo } from "./action-io.js";
import { booleanInput, passEnvInput } from "./action-inputs.js";
import { listInput } from "./list-input.js";
import { DEFAULT_SENSITIVE } from "../core/gate/gate-config.js";

/** The gate's inputs, validated. */
export interface GateInputs {
  readonly runAcceptance: boolean;
  /** The default sensitive paths plus the input's: an input can add paths, never make `.github/**` safe. */
  readonly sensitive: readonly string[];
  /** Environment variable names handed to the acceptance command beside the base allowlist. */
  readonly passEnv: readonly string[];
  /** A file holding the acceptance result a job without write access produced (input `acceptance-result`), or undefined to run the command here. */
  readonly acceptanceResult: string | undefined;
}

/** Reads and validates the gate's inputs; throws ActionInputError naming a bad one. */
export function readGateInputs(io: ActionIo): GateInputs {
  const acceptanceResult = io.input("acceptance-result").trim();
  return {
    runAcceptance: booleanInput(io, "run-acceptance", true),
    sensitive: [...new Set([...DEFAULT_SENSITIVE, ...listInput(io, "sensitive-paths")])],
    passEnv: passEnvInput(io),
    acceptanceResult: acceptanceResult === "" ? undefined : acceptanceResult,
  };
}

/**
 * The same ActionIo with the gate's inputs in canonical form (`run-acceptance` exactly `true` or
 * `false`, `sensitive-paths` the full list), so the code that judges reads only validated values.
 */
export function canonicalGateIo(io: ActionIo, inputs: GateInputs): ActionIo {
  const canonical: Record<string, string> = { "run-acceptance": String(inputs.runAcceptance), "sensitive-paths": inputs.sensitive.join("\n") };
  return { ...io, input: (name) => canonical[name] ?? io.input(name) };
}
