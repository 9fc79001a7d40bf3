import { describe, expect, it } from "vitest";
import { isBotIdentity } from "../../../src/core/separation/identity.js";
import { separationCandidates } from "../../../src/core/separation/separation-candidates.js";
import type { SeparationFacts } from "../../../src/core/separation/separation-facts.js";

describe("bot identities", () => {
  it.each([
    ["claude[bot]", true],
    ["Dependabot[bot]", true],
    ["209825114+claude[bot]@users.noreply.github.com", true],
    ["41898282+github-actions[bot]@users.noreply.github.com", true],
    ["mona", false],
    ["123+mona@users.noreply.github.com", false],
    ["robot@example.com", false],
  ])("%s → %s", (value, bot) => {
    expect(isBotIdentity(value)).toBe(bot);
  });
});

const HEAD = "c".repeat(40);
const facts = (f: Partial<SeparationFacts>): SeparationFacts => ({ headSha: HEAD, author: "dave", requesters: [], commits: [], pushes: { branch: "feature", complete: true, activities: [{ type: "branch_creation", actor: "dave", after: HEAD, at: "t" }] }, commitsComplete: true, reviews: [], comments: [], dispatchedByBosun: false, siblings: [], ...f });
const noAgents = { agents: [], excluded: [], required: 1 };

describe("agent work is found without configuration", () => {
  it.each([
    ["a [bot] author", facts({ author: "claude[bot]" })],
    ["an author whose account type is Bot", facts({ author: "some-app", authorIsBot: true })],
    ["Copilot's account", facts({ author: "Copilot" })],
    ["Copilot's coding agent", facts({ author: "copilot-swe-agent" })],
    ["a commit by a bot's noreply address", facts({ commits: [{ sha: HEAD, author: { email: "1+claude[bot]@users.noreply.github.com" }, committer: {}, message: "x" }] })],
    ["a co-author that is a bot", facts({ commits: [{ sha: HEAD, author: { login: "dave" }, committer: {}, message: "x\n\nCo-authored-by: Claude <noreply@anthropic.com>\nCo-authored-by: claude[bot] <1+claude[bot]@users.noreply.github.com>" }] })],
    ["a human's commit co-authored by Claude Code", facts({ commits: [{ sha: HEAD, author: { login: "dave" }, committer: {}, message: "x\n\nCo-Authored-By: Claude <noreply@anthropic.com>" }] })],
    ["an approving review by a bot", facts({ reviews: [{ login: "reviewer-app", isBot: true, state: "APPROVED", commitId: HEAD, at: "t", association: "COLLABORATOR" }] })],
  ])("%s", (_name, f) => {
    const analysis = separationCandidates(f, noAgents);
    expect(analysis.agentWork.length).toBeGreaterThan(0);
    expect(analysis.candidates.filter((c) => c.login !== "dave")).toEqual([]);
  });

  it("a human's own PR with human commits is not agent work", () => {
    expect(separationCandidates(facts({ commits: [{ sha: HEAD, author: { login: "dave", email: "dave@example.com" }, committer: { login: "web-flow" }, message: "x" }] }), noAgents).agentWork).toEqual([]);
  });
});

describe("a bot's approval never counts, however it is given", () => {
  it.each([
    ["a /approve comment by a [bot] login", facts({ comments: [{ login: "helper[bot]", body: `/approve ${HEAD}`, at: "t", association: "COLLABORATOR" }] })],
    ["an approving review by a [bot] login", facts({ reviews: [{ login: "helper[bot]", state: "APPROVED", commitId: HEAD, at: "t", association: "COLLABORATOR" }] })],
  ])("%s", (_name, f) => {
    const analysis = separationCandidates(f, noAgents);
    expect(analysis.candidates).toEqual([]);
    expect(analysis.notCounted.find((n) => n.login === "helper[bot]")?.why).toContain("agent");
  });
});
