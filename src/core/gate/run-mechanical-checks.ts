import type { Brief } from "../brief/brief.js";
import type { GateDiff } from "./changed-file.js";
import type { CheckResult } from "./check-result.js";
import { checkDiff } from "./check-diff.js";
import { checkPaths } from "./check-paths.js";
import { checkSensitive } from "./check-sensitive.js";
import { checkSize } from "./check-size.js";
import { compileAllowedPaths } from "./compile-allowed-paths.js";
import type { GlobSet } from "./compile-globs.js";
import { compileGlobs } from "./compile-globs.js";
import { diffCompleteness } from "./diff-completeness.js";
import type { GateConfig } from "./gate-config.js";
import { judgeLockFiles } from "./lock-files.js";

/** Gate configuration with its globs compiled, so a caller gating many diffs compiles once. */
export interface CompiledGateConfig {
  readonly sensitive: GlobSet;
  readonly sizeIgnore: GlobSet;
}

/** Compiles the configuration's glob lists once. */
export function compileGateConfig(config: GateConfig): CompiledGateConfig {
  return { sensitive: compileGlobs(config.sensitive), sizeIgnore: compileGlobs(config.sizeIgnore) };
}

/**
 * The pure checks over a diff (no acceptance command, no reviewer): diff completeness, allowed
 * paths, size and sensitive paths, in report order. `manifestsAtBase` names the manifests
 * (`web/package.json`) that exist at the base commit, as the edge looked them up
 * (`manifestsToLookUp`): a lock file stays out of the size count only beside one of them.
 */
export function runMechanicalChecks(brief: Brief, diff: GateDiff, config: CompiledGateConfig, manifestsAtBase: ReadonlySet<string> = new Set()): CheckResult[] {
  const gaps = diffCompleteness(diff);
  const allowed = compileAllowedPaths(brief.constraints.paths);
  return [
    checkDiff(gaps, diff.files.length),
    checkPaths(diff.files, allowed, brief.constraints.paths, gaps.listComplete),
    checkSize(diff, gaps, brief.size_cap, config.sizeIgnore, judgeLockFiles(diff.files, brief.constraints.paths, manifestsAtBase)),
    checkSensitive(diff.files, config.sensitive, gaps.listComplete),
  ];
}
