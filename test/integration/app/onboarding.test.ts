/**
 * The onboarding pull request, judged from what the fake GitHub recorded: installing the App on a
 * bare repository opens exactly one "Set up Bosun" pull request with the `bosun init` files and the
 * admin's steps as a checklist — whatever the redeliveries, replicas and answers that fail after
 * applying — and a repository that already has a configuration gets none.
 */
import { afterEach, describe, expect, test } from "vitest";
import { Octokit } from "@octokit/rest";
import { ONBOARDING_BRANCH, ONBOARDING_TITLE, onboardingFiles, openOnboardingPull } from "../../../src/app/onboarding/open-onboarding-pull.js";
import { DEFAULT_CONFIG } from "../../../src/core/config/bosun-config.js";
import { labelNamesOf } from "../../../src/core/setup/check-labels.js";
import { setupSteps } from "../../../src/core/setup/setup-steps.js";
import { APP_PERMISSIONS } from "../../../src/core/setup/setup-templates.js";
import { filesAt } from "../../fake-github/git-objects.js";
import { setInstallationPermissions } from "../../fake-github/seed-setup.js";
import { BOT, OWNER_REPO, REPO, startHarness, type Harness } from "./app-harness.js";

let h: Harness | undefined;
afterEach(async () => h?.close());

const onboardingPulls = (h: Harness) => [...h.fake.repo(REPO).pulls.values()].filter((p) => h?.fake.repo(REPO).issues.get(p.number)?.title === ONBOARDING_TITLE);

/** The `installation.created` (or `installation_repositories.added`) delivery for REPO, with the installation's permissions. */
function install(h: Harness, event: "installation" | "installation_repositories", permissions: Record<string, string> = { ...APP_PERMISSIONS }): void {
  const repo = h.fake.repo(REPO);
  const listed = [{ id: repo.id, node_id: `R_${repo.id}`, name: repo.name, full_name: REPO, private: repo.private }];
  h.fake.webhooks.send({
    event,
    action: event === "installation" ? "created" : "added",
    repo,
    sender: "acme",
    fields: { installation: { id: 501, app_id: 42, permissions }, ...(event === "installation" ? { repositories: listed } : { repositories_added: listed, repositories_removed: [], repository_selection: "selected" }) },
  });
}

async function redeliverAll(h: Harness, event: string): Promise<void> {
  for (const d of h.fake.webhooks.deliveries.filter((x) => x.event === event && !x.duplicate)) await h.fake.webhooks.redeliver(d.id);
}

/** A second replica's view: its own client on the same GitHub, as the installation's bot. */
function replica(h: Harness, token: string): Octokit {
  h.fake.state.tokens.set(token, { kind: "bot", login: BOT, installationId: 501 });
  return new Octokit({ auth: token, baseUrl: h.fake.url, log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} } });
}

describe("the onboarding pull request", () => {
  test("installing the App on a bare repository, the event delivered three times, opens exactly one pull request with the init files and the steps as a checklist", async () => {
    h = await startHarness();
    setInstallationPermissions(h.fake.state, 501, { ...APP_PERMISSIONS });
    install(h, "installation");
    await h.fake.webhooks.flush();
    await redeliverAll(h, "installation");
    await redeliverAll(h, "installation");
    // Adding the repository to the installation again says the same thing.
    install(h, "installation_repositories");
    await h.fake.webhooks.flush();
    expect(h.fake.webhooks.deliveries.filter((d) => d.event === "installation").map((d) => d.status)).toEqual([200, 200, 200]);

    const pulls = onboardingPulls(h);
    expect(pulls).toHaveLength(1);
    const [pull] = pulls;
    const issue = h.fake.repo(REPO).issues.get(pull?.number ?? 0);
    expect(issue?.user).toBe(BOT);
    expect(pull).toMatchObject({ headRef: ONBOARDING_BRANCH, baseRef: "main" });
    // The branch holds exactly the init files for the default agent, over the default branch.
    const tree = filesAt(h.fake.repo(REPO), pull?.headSha ?? "");
    for (const f of onboardingFiles({ canWriteWorkflows: true })) expect(tree?.get(f.path), f.path).toBe(f.content);
    expect([...(tree?.keys() ?? [])].filter((p) => p.startsWith(".github/workflows/")).sort()).toEqual([".github/workflows/bosun-acceptance.yml", ".github/workflows/bosun-gate.yml", ".github/workflows/bosun-review-relay.yml", ".github/workflows/bosun-separation.yml", ".github/workflows/bosun-work-claude-code-item.yml", ".github/workflows/bosun-work-claude-code.yml"]);
    const checklist = (issue?.body ?? "").split("\n").filter((l) => l.startsWith("- [ ] "));
    expect(checklist).toEqual(setupSteps({ agent: "claude-code", actionOnly: false, verify: false, context: "onboarding", repo: REPO }).map((s) => `- [ ] ${s}`));
    expect(checklist.join("\n")).toMatch(/environment `bosun`[\s\S]*bosun\/gate[\s\S]*bosun doctor/);
    // One branch, one commit; the labels a maintainer picks from now exist.
    expect([...h.fake.repo(REPO).refs.keys()].filter((r) => r.startsWith("refs/heads/")).sort()).toEqual(["refs/heads/bosun/setup", "refs/heads/main"]);
    expect(h.botWrites().filter((w) => w.startsWith("POST /repos/{owner}/{repo}/pulls "))).toEqual(["POST /repos/{owner}/{repo}/pulls 201"]);
    const labels = [...h.fake.repo(REPO).labels.values()].map((l) => l.name);
    for (const name of labelNamesOf(DEFAULT_CONFIG)) expect(labels).toContain(name);
  });

  test("a repository that already has .github/bosun.yml gets no pull request, no branch and no write", async () => {
    h = await startHarness({ config: "pools: { default: { size: 1, dispatch: { kind: comment } } }\n" });
    install(h, "installation");
    await h.fake.webhooks.flush();
    await redeliverAll(h, "installation");
    expect(onboardingPulls(h)).toEqual([]);
    expect(h.fake.repo(REPO).refs.has(`refs/heads/${ONBOARDING_BRANCH}`)).toBe(false);
    expect(h.botWrites()).toEqual([]);
  });

  test("a closed onboarding pull request is never opened again", async () => {
    h = await startHarness();
    install(h, "installation");
    await h.fake.webhooks.flush();
    const [pull] = onboardingPulls(h);
    // A pull request's conversation is its issue: closing it closes the pull request (the fake has no pulls.update).
    await h.as("admin").issues.update({ ...OWNER_REPO, issue_number: pull?.number ?? 0, state: "closed" });
    await h.fake.webhooks.flush();
    const before = h.logPosition();
    install(h, "installation_repositories");
    await h.fake.webhooks.flush();
    expect(onboardingPulls(h)).toHaveLength(1);
    expect(h.botWrites(before)).toEqual([]);
  });

  test("five replicas racing on one repository open exactly one pull request; the others read back who did", async () => {
    h = await startHarness();
    const clients = [0, 1, 2, 3, 4].map((i) => replica(h as Harness, `t-replica-${i}`));
    const outcomes = await Promise.all(clients.map((c) => openOnboardingPull(c, OWNER_REPO, { canWriteWorkflows: true })));
    expect(outcomes.filter((o) => o.kind === "opened")).toHaveLength(1);
    for (const o of outcomes) expect(["opened", "opened-by-another", "proposed-before"]).toContain(o.kind);
    expect(onboardingPulls(h)).toHaveLength(1);
  });

  test("a branch creation applied but answered 422, and a pull request applied but answered 502, still end with exactly one pull request", async () => {
    h = await startHarness();
    const client = replica(h, "t-replica");
    h.fake.faults.add({ kind: "spurious-422", applied: true, times: 1, route: "POST /repos/{owner}/{repo}/git/refs" });
    // 422 read back: the branch is ours, so the pull request is opened.
    expect((await openOnboardingPull(client, OWNER_REPO, { canWriteWorkflows: true })).kind).toBe("opened");
    expect(onboardingPulls(h)).toHaveLength(1);

    const h2 = await startHarness();
    try {
      const other = replica(h2, "t-replica");
      h2.fake.faults.add({ kind: "error", status: 502, applied: true, times: 1, route: "POST /repos/{owner}/{repo}/pulls" });
      await expect(openOnboardingPull(other, OWNER_REPO, { canWriteWorkflows: true })).rejects.toMatchObject({ status: 502 });
      // The redelivery finds the pull request GitHub did open.
      expect(await openOnboardingPull(other, OWNER_REPO, { canWriteWorkflows: true })).toMatchObject({ kind: "proposed-before" });
      expect([...h2.fake.repo(REPO).pulls.values()]).toHaveLength(1);
    } finally {
      await h2.close();
    }
  });

  test("a branch named bosun/setup that Bosun did not write is left alone", async () => {
    h = await startHarness();
    h.fake.setRef(REPO, `refs/heads/${ONBOARDING_BRANCH}`, h.fake.commit(REPO, "main", "someone's own work").sha);
    expect(await openOnboardingPull(replica(h, "t-replica"), OWNER_REPO, { canWriteWorkflows: true })).toEqual({ kind: "branch-not-ours" });
    expect(onboardingPulls(h)).toEqual([]);
  });

  test("installed without the workflows permission, the pull request leaves the workflows out and says how to add them", async () => {
    h = await startHarness();
    const { workflows: _w, ...withoutWorkflows } = APP_PERMISSIONS;
    install(h, "installation", withoutWorkflows);
    await h.fake.webhooks.flush();
    const [pull] = onboardingPulls(h);
    const tree = filesAt(h.fake.repo(REPO), pull?.headSha ?? "");
    expect([...(tree?.keys() ?? [])].sort()).toEqual([".github/ISSUE_TEMPLATE/bosun-brief.yml", ".github/bosun.yml"]);
    expect(h.fake.repo(REPO).issues.get(pull?.number ?? 0)?.body).toContain("- [ ] Add the workflows this pull request could not");
  });
});
