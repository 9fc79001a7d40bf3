import { expect, it } from "vitest";
import { PUSH_COMMITS_MOST, pushedPaths } from "../../../src/app/pushed-paths.js";

const commit = (modified: string[], added: string[] = [], removed: string[] = []) => ({ added, removed, modified });

it.each([
  ["the paths of every commit, once", { commits: [commit(["src/a.ts"]), commit(["src/a.ts", ".github/bosun.yml"], ["docs/x.md"], ["old.txt"])] }, [".github/bosun.yml", "docs/x.md", "old.txt", "src/a.ts"]],
  ["a forced push: commits it dropped are in no list", { forced: true, commits: [commit(["src/a.ts"])] }, undefined],
  ["no commit list", {}, undefined],
  ["an empty list (a branch moved to a commit it already had)", { commits: [] }, undefined],
  ["a full list: GitHub lists at most 2048, more may be missing", { commits: Array.from({ length: PUSH_COMMITS_MOST }, () => commit(["src/a.ts"])) }, undefined],
  ["a commit without its file lists", { commits: [{ modified: ["src/a.ts"] }] }, undefined],
])("%s", (_what, payload, paths) => {
  expect(pushedPaths(payload)?.sort()).toEqual(paths);
});
