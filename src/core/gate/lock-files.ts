import type { ChangedFile } from "./changed-file.js";
import type { AllowedPaths } from "./compile-allowed-paths.js";
import { compileAllowedPaths } from "./compile-allowed-paths.js";

/**
 * Lock files by name, each with the manifests it is generated from. A lock file is machine-written
 * only where one of its manifests sits in the same directory; anywhere else the name proves nothing
 * (anyone can name a file `yarn.lock`).
 */
export const LOCK_FILE_MANIFESTS: Readonly<Record<string, readonly string[]>> = {
  "package-lock.json": ["package.json"],
  "npm-shrinkwrap.json": ["package.json"],
  "yarn.lock": ["package.json"],
  "pnpm-lock.yaml": ["package.json"],
  "bun.lockb": ["package.json"],
  "Cargo.lock": ["Cargo.toml"],
  "go.sum": ["go.mod"],
  "poetry.lock": ["pyproject.toml"],
  "uv.lock": ["pyproject.toml"],
  "Gemfile.lock": ["Gemfile", "gems.rb"],
  "composer.lock": ["composer.json"],
};

/** At most this many manifests are looked up at the base for one diff; lock files past it count. */
export const MAX_MANIFEST_LOOKUPS = 20;

const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);
const dirOf = (path: string): string => path.slice(0, path.lastIndexOf("/") + 1);

/** The manifests a lock file needs beside it (`web/yarn.lock` → `web/package.json`); undefined when the name is no lock file's. */
export function manifestsBeside(path: string): readonly string[] | undefined {
  const manifests = LOCK_FILE_MANIFESTS[baseName(path)];
  return manifests?.map((m) => `${dirOf(path)}${m}`);
}

/**
 * The brief's code paths: its `constraints.paths` without the entries that name a lock file
 * (`package-lock.json`, `**\/yarn.lock`). A lock file one of those covers (`src/**` covers
 * `src/lib/yarn.lock`) sits where the brief expects code, so it counts like code.
 */
export function codePaths(briefPaths: readonly string[]): AllowedPaths {
  return compileAllowedPaths(briefPaths.filter((p) => LOCK_FILE_MANIFESTS[baseName(p.replace(/\/+$/, ""))] === undefined));
}

/** Whether a lock file's lines stay out of `size_cap`, or why they count. */
export type LockFileVerdict = { readonly exempt: true } | { readonly exempt: false; readonly why: string };

/**
 * The manifests to look up at the base commit: those beside a lock file that could be exempt and
 * that the diff does not already settle (a manifest it modifies exists at the base; one it adds or
 * removes does not help). At most MAX_MANIFEST_LOOKUPS.
 */
export function manifestsToLookUp(files: readonly ChangedFile[], briefPaths: readonly string[]): string[] {
  const code = codePaths(briefPaths);
  const listed = new Set(files.map((f) => f.path));
  const wanted = new Set<string>();
  for (const file of files) {
    const manifests = manifestsBeside(file.path);
    if (manifests === undefined || !mayBeExempt(file, code)) continue;
    for (const m of manifests) if (!listed.has(m)) wanted.add(m);
  }
  return [...wanted].slice(0, MAX_MANIFEST_LOOKUPS);
}

/**
 * Judges every lock file of a diff (path → verdict; other files are absent): its lines stay out of
 * the count only when it is not renamed or copied, no code path of the brief covers it, and one of
 * its manifests sits beside it at the base (`manifestsAtBase`, or modified by the diff) — a
 * manifest the diff adds or removes does not count: a new package's lock is its author's to write.
 */
export function judgeLockFiles(files: readonly ChangedFile[], briefPaths: readonly string[], manifestsAtBase: ReadonlySet<string>): Map<string, LockFileVerdict> {
  const code = codePaths(briefPaths);
  const inDiff = new Map(files.map((f) => [f.path, f.status]));
  const verdicts = new Map<string, LockFileVerdict>();
  for (const file of files) {
    const manifests = manifestsBeside(file.path);
    if (manifests === undefined) continue;
    if (file.status === "renamed" || file.status === "copied" || (file.previousPath !== undefined && file.previousPath !== file.path)) {
      verdicts.set(file.path, { exempt: false, why: "renamed or copied" });
      continue;
    }
    if (code.allows(file.path)) {
      verdicts.set(file.path, { exempt: false, why: "inside the brief's code paths" });
      continue;
    }
    const beside = manifests.some((m) => {
      const status = inDiff.get(m);
      if (status === undefined) return manifestsAtBase.has(m);
      // Modified means it was there at the base; added or removed means it was not, or is going.
      return status === "modified" || status === "changed" || status === "unchanged";
    });
    verdicts.set(file.path, beside ? { exempt: true } : { exempt: false, why: `no ${manifests.map(baseName).join(" or ")} beside it at the base` });
  }
  return verdicts;
}

function mayBeExempt(file: ChangedFile, code: AllowedPaths): boolean {
  return file.status !== "renamed" && file.status !== "copied" && !code.allows(file.path);
}
