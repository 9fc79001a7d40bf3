/**
 * A gate diff's patch text is bounded: past the bound git is stopped, the files get no patch, and
 * the gate's completeness check says could-not-check — never a pass on a patch it did not read,
 * never minutes spent reading one. A small bound stands in for the 32 MB default.
 */
import { afterEach, describe, expect, it } from "vitest";
import { gitDiff, MAX_PATCH_BYTES } from "../../../src/adapters/local/git-diff.js";
import { diffCompleteness } from "../../../src/core/gate/diff-completeness.js";
import { TempRepo, lines } from "./temp-repo.js";

let repo: TempRepo | undefined;
afterEach(() => repo?.remove());

describe("a huge patch in a gate diff", () => {
  it("past the bound the patch is not read: the files come without one and the diff is could-not-check", async () => {
    repo = new TempRepo().write("a.txt", "x\n").commit("base");
    repo.git("branch", "base");
    repo.write("big.txt", lines(5000)).write("small.txt", "y\n").commit("big");
    const bounded = await gitDiff(repo.dir, "base", "main", 10_000);
    expect(bounded.ok).toBe(true);
    if (!bounded.ok) return;
    expect(bounded.diff.files.map((f) => [f.path, f.additions, f.patch])).toEqual([
      ["big.txt", 5000, undefined],
      ["small.txt", 1, undefined],
    ]);
    expect(bounded.diff.totals).toEqual({ changed_files: 2, additions: 5001, deletions: 0 });
    const gaps = diffCompleteness(bounded.diff);
    expect(gaps.countsComplete).toBe(false);
    expect(gaps.reasons.join("\n")).toMatch(/2 files came without a patch/);
  });

  it("under the bound every patch is read as before", async () => {
    repo = new TempRepo().write("a.txt", "x\n").commit("base");
    repo.git("branch", "base");
    repo.write("big.txt", lines(5000)).commit("big");
    const diff = await gitDiff(repo.dir, "base", "main");
    expect(MAX_PATCH_BYTES).toBe(32 * 1024 * 1024);
    expect(diff.ok && diff.diff.files[0]?.patch?.startsWith("@@ -0,0 +1,5000 @@")).toBe(true);
  });
});
