/** Artifacts of played runs: each one a folder copied out of a job at upload and into another at download. */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { basename, join } from "node:path";

export interface ArtifactStore {
  /**
   * Copies `paths` (files or folders; a folder's contents at the artifact's root, a file by its name)
   * as `name` of run `runId`; answers the number of files and the new artifact's id (each upload
   * its own, as GitHub numbers artifacts), none when nothing was uploaded.
   */
  upload(runId: number, name: string, paths: readonly string[]): { count: number; id?: number };
  /** Copies artifact `name` of run `runId` into `into`; false when there is no such artifact. */
  download(runId: number, name: string, into: string): boolean;
  names(runId: number): string[];
  /** Copies the artifact with this id, if it is run `runId`'s and still there, into `into`; false otherwise. */
  downloadById(runId: number, id: number, into: string): boolean;
  /** Deletes artifact `name` of run `runId` (`overwrite: true` deletes before it uploads). */
  remove(runId: number, name: string): void;
}

function countFiles(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? countFiles(join(dir, e.name)) : 1), 0);
}

export function createArtifactStore(root: string): ArtifactStore {
  const base = mkdtempSync(join(root, "artifacts-"));
  const folder = (runId: number, name: string) => join(base, String(runId), encodeURIComponent(name));
  /** Artifact id → the run and name it was uploaded as; an id dies with its artifact (deleted, or overwritten). */
  const byId = new Map<number, { runId: number; name: string }>();
  let nextId = 9001;
  const forget = (runId: number, name: string): void => {
    for (const [id, a] of byId) if (a.runId === runId && a.name === name) byId.delete(id);
  };
  return {
    upload(runId, name, paths) {
      const into = folder(runId, name);
      mkdirSync(into, { recursive: true });
      for (const path of paths) {
        if (!existsSync(path)) continue;
        if (statSync(path).isDirectory()) cpSync(path, into, { recursive: true });
        else cpSync(path, join(into, basename(path)));
      }
      const count = countFiles(into);
      // Nothing uploaded is no artifact (a later upload of the name is no conflict).
      if (count === 0) {
        rmSync(into, { recursive: true, force: true });
        return { count };
      }
      const id = nextId++;
      byId.set(id, { runId, name });
      return { count, id };
    },
    download(runId, name, into) {
      const from = folder(runId, name);
      if (!existsSync(from)) return false;
      mkdirSync(into, { recursive: true });
      cpSync(from, into, { recursive: true });
      return true;
    },
    remove(runId, name) {
      rmSync(folder(runId, name), { recursive: true, force: true });
      forget(runId, name);
    },
    downloadById(runId, id, into) {
      const a = byId.get(id);
      if (a === undefined || a.runId !== runId) return false;
      return this.download(runId, a.name, into);
    },
    names(runId) {
      const dir = join(base, String(runId));
      return existsSync(dir) ? readdirSync(dir).map(decodeURIComponent) : [];
    },
  };
}
