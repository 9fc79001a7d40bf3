import { describe, expect, it } from "vitest";
import type { PullFacts, PullOfBranch } from "../../../src/ports/gate-github.js";
import { untiedAcceptanceRun } from "../../../src/action/gate/untied-acceptance-run.js";

const pull: PullFacts = { number: 10, headSha: "a".repeat(40), baseSha: "b".repeat(40), headRef: "bosun/5-fix", headRepo: "acme/app", baseRef: "main", defaultBranch: "main", fromFork: false, body: null, labels: [], additions: 1, deletions: 0, changedFiles: 1 };
const judged = (ref: string) => (ref === "main" ? undefined : `not main: ${ref}`);
const reader = (pulls: PullOfBranch[], changed: Record<number, string[]> = {}) => {
  const asked: string[] = [];
  return {
    asked,
    async pullsFromHead(owner: string, branch: string, limit: number) {
      asked.push(`${owner}:${branch}`);
      return pulls.slice(0, limit + 1);
    },
    async baseChanges(n: number) {
      return changed[n] ?? [];
    },
  };
};
const own = { number: 10, baseRef: "main", state: "open" };
const run = { headBranch: "bosun/5-fix", headRepo: "acme/app" };

describe("an acceptance run counts for a pull request only when GitHub's record ties them", () => {
  it.each([
    ["a run that names no head branch", { headRepo: "acme/app" }, [own], {}, "names no head branch"],
    ["a run of another branch at the same commit", { ...run, headBranch: "evil-head" }, [own], {}, "acme/app:evil-head"],
    ["a run of a fork's branch of the same name", { ...run, headRepo: "mallory/app" }, [own], {}, "mallory/app:bosun/5-fix"],
    ["a branch whose closed PR merges into another base", run, [own, { number: 11, baseRef: "evil", state: "closed" }], {}, "#11 (closed)"],
    ["a branch whose PR's base was changed", run, [own, { number: 9, baseRef: "main", state: "closed" }], { 9: ["2026-01-01T00:00:00Z"] }, "#9"],
    ["a list that does not show the judged PR yet", run, [{ number: 9, baseRef: "main", state: "closed" }], {}, "lists no pull request #10"],
    ["more pull requests from one branch than are read", run, Array.from({ length: 150 }, (_, i) => ({ number: i + 1, baseRef: "main", state: "closed" })), {}, "more than 100"],
  ])("refuses %s", async (_name, r, pulls, changed, why) => {
    expect(await untiedAcceptanceRun(reader(pulls, changed), r, pull, judged, "the run")).toContain(why);
  });

  it("takes the judged PR's own run, reading the head owner's branch", async () => {
    const github = reader([own, { number: 3, baseRef: "main", state: "closed" }]);
    expect(await untiedAcceptanceRun(github, run, pull, judged, "the run")).toBeUndefined();
    expect(github.asked).toEqual(["acme:bosun/5-fix"]);
  });
});
