/**
 * The player itself, on small workflows: which file each trigger reads, jobs in `needs` order with
 * outputs and results, tokens with exactly the job's permissions, environments that deploy from the
 * default branch only, a checkout that is a real git repository of the fake's commit, artifacts
 * between jobs, and dispatches checked against the workflow file. Judged from the fake's records.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { createActionsService, type ActionsService } from "./actions-service.js";
import { PROJECT_ROOT } from "./bosun-action-step.js";

const REPO = "acme/app";
const repo = { owner: "acme", repo: "app" } as const;
let fake: FakeGitHub;
let actions: ActionsService;
afterEach(async () => {
  actions.close();
  await fake.close();
});

const DISPATCH = `name: dispatched
run-name: "item #\${{ inputs.item }} by \${{ github.actor }}"
on:
  workflow_dispatch:
    inputs:
      item: {required: true}
      note: {required: false, default: none}
permissions: {}
jobs:
  first:
    runs-on: ubuntu-latest
    permissions:
      issues: write
    outputs:
      said: \${{ steps.say.outputs.said }}
    steps:
      - uses: actions/checkout@v7
      - id: say
        run: |
          test "$(git rev-parse HEAD)" = "$GITHUB_SHA"
          git config --get-regexp 'http\\..*\\.extraheader' | grep -q 'AUTHORIZATION: basic'
          { echo 'said<<EOF'; echo "item \${{ inputs.item }}"; echo "note \${{ inputs.note }}"; echo EOF; } >> "$GITHUB_OUTPUT"
          code() { curl -s -o /dev/null -w '%{http_code}' -H "Authorization: token $TOKEN" "$@"; }
          echo "labels $(code -X POST -d '{"labels":["seen"]}' "$GITHUB_API_URL/repos/acme/app/issues/\${{ inputs.item }}/labels")"
          echo "ref $(code -X POST -d '{"ref":"refs/heads/x","sha":"'$GITHUB_SHA'"}' "$GITHUB_API_URL/repos/acme/app/git/refs")"
        env:
          TOKEN: \${{ github.token }}
      - run: mkdir -p out && echo 42 > out/answer.txt
      - uses: actions/upload-artifact@v7
        with: {name: answer, path: out/}
  second:
    needs: first
    if: needs.first.result == 'success'
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v7
        with: {persist-credentials: false}
      - run: test -z "$(git config --get-regexp 'http\\..*\\.extraheader' || true)"
      - uses: actions/download-artifact@v8
        with: {name: answer, path: got}
      - run: test "$(cat got/answer.txt)" = 42 && echo "heard \${{ needs.first.outputs.said }}"
      - uses: actions/download-artifact@v8
        continue-on-error: true
        with: {name: nothing-here}
      - run: echo "only on failure"
        if: failure()
  third:
    needs: [first, second]
    if: always() && needs.second.result == 'failure'
    runs-on: ubuntu-latest
    steps:
      - run: echo never
`;

const PR_FLOW = (who: string) => `name: pr flow
on:
  pull_request:
  pull_request_target:
permissions: {contents: read}
jobs:
  say:
    runs-on: ubuntu-latest
    environment: \${{ github.event_name == 'pull_request_target' && 'trusted' || 'open' }}
    steps:
      - run: echo "${who} file, event \${{ github.event_name }}, ref \${{ github.ref }}, secret [\${{ secrets.KEY }}]"
`;

const AFTER = `name: after
on:
  workflow_run:
    workflows: ["pr flow"]
    types: [completed]
jobs:
  note:
    runs-on: ubuntu-latest
    environment: protected
    steps:
      - run: echo "after \${{ github.event.workflow_run.event }} \${{ github.event.workflow_run.conclusion }}"
`;

async function world(files: Record<string, string>) {
  fake = await createFakeGitHub({ seed: 3 });
  fake.addRepo({ fullName: REPO, files: { "README.md": "# app\n", ...files } });
  fake.addToken("t-mona", "mona", { permissions: { [REPO]: "write" } });
  actions = createActionsService({
    fake,
    repo: REPO,
    projectRoot: PROJECT_ROOT,
    secrets: { KEY: "repo-secret-value" },
    environments: { trusted: { secrets: { KEY: "trusted-secret-value" } }, protected: { defaultBranchOnly: true } },
  });
  return createTestOctokit(fake.url, "t-mona");
}

const logOf = (name: string) =>
  actions.runs
    .filter((r) => r.workflow.name === name)
    .flatMap((r) => [...r.jobs.values()].flatMap((j) => j.log))
    .join("\n");

describe("the workflow player", () => {
  test("a dispatch: run-name, needs in order with outputs, the token's exact permissions, a real checkout, artifacts, if: and continue-on-error", async () => {
    const mona = await world({ ".github/workflows/dispatch.yml": DISPATCH });
    const issue = fake.addIssue(REPO, { title: "x" });
    const { data } = await mona.actions.createWorkflowDispatch({ ...repo, workflow_id: "dispatch.yml", ref: "main", inputs: { item: String(issue.number) }, return_run_details: true } as never);
    const runId = (data as unknown as { workflow_run_id: number }).workflow_run_id;
    expect((await mona.actions.getWorkflowRun({ ...repo, run_id: runId })).data.display_title).toBe(`item #${issue.number} by mona`);
    await actions.runUntilQuiet();
    const run = actions.runs.find((r) => r.id === runId);
    expect(Object.fromEntries([...(run?.jobs.values() ?? [])].map((j) => [j.id, j.result]))).toEqual({ first: "success", second: "success", third: "skipped" });
    const log = logOf("dispatched");
    // issues: write lets the label through; contents is none, so the ref is refused.
    expect(log).toContain("labels 200");
    expect(log).toContain("ref 403");
    expect(fake.repo(REPO).issues.get(issue.number)?.labels).toEqual(["seen"]);
    expect(log).toContain(`[second/3] heard item ${issue.number}\n[second/3] note none`);
    expect(log).toMatch(/Artifact not found for name: nothing-here \(continue-on-error\)/);
    expect(log).not.toContain("only on failure");
    const record = fake.repo(REPO).workflowRuns.get(runId);
    expect(record).toMatchObject({ status: "completed", conclusion: "success" });
    // The job's token died with the job.
    expect([...fake.state.tokens.values()].filter((t) => t.kind === "bot" && t.login === "github-actions[bot]")).toEqual([]);
  });

  test("dispatches are checked against the workflow file at the ref, as GitHub answers them", async () => {
    const mona = await world({ ".github/workflows/dispatch.yml": DISPATCH, ".github/workflows/after.yml": AFTER });
    const status = (p: Promise<unknown>) => p.then(() => 204, (e: { status: number; response?: { data?: { message?: string } } }) => `${e.status} ${e.response?.data?.message ?? ""}`);
    expect(await status(mona.actions.createWorkflowDispatch({ ...repo, workflow_id: "dispatch.yml", ref: "main", inputs: {} }))).toBe("422 Required input 'item' not provided");
    expect(await status(mona.actions.createWorkflowDispatch({ ...repo, workflow_id: "dispatch.yml", ref: "main", inputs: { item: "1", extra: "x" } }))).toBe('422 Unexpected inputs provided: ["extra"]');
    expect(await status(mona.actions.createWorkflowDispatch({ ...repo, workflow_id: "after.yml", ref: "main" }))).toBe("422 Workflow does not have 'workflow_dispatch' trigger");
    expect(actions.runs).toEqual([]);
  });

  test("pull_request reads the PR's own file, pull_request_target and workflow_run the default branch's; environments and their secrets follow", async () => {
    const mona = await world({ ".github/workflows/pr.yml": PR_FLOW("base"), ".github/workflows/after.yml": AFTER });
    const main = fake.repo(REPO).refs.get("refs/heads/main") as string;
    fake.setRef(REPO, "feature", main);
    fake.commit(REPO, "feature", "change the workflow", { ".github/workflows/pr.yml": PR_FLOW("pr"), "src/x.ts": "x\n" });
    const { data: pull } = await mona.pulls.create({ ...repo, head: "feature", base: "main", title: "Change" });
    await actions.runUntilQuiet();
    const log = logOf("pr flow");
    expect(log).toContain(`pr file, event pull_request, ref refs/pull/${pull.number}/merge, secret [***]`);
    expect(log).toContain("base file, event pull_request_target, ref refs/heads/main, secret [***]");
    // Secrets are masked in logs; which one each run got is visible through the environment it ran in.
    const after = actions.runs.filter((r) => r.workflow.name === "after");
    expect(after.map((r) => [r.event, r.jobs.get("note")?.result])).toEqual([
      ["workflow_run", "success"],
      ["workflow_run", "success"],
    ]);
    const prRuns = fake.repo(REPO).workflowRuns;
    const listed = (await mona.actions.listWorkflowRunsForRepo({ ...repo, event: "pull_request" })).data.workflow_runs;
    expect(listed.map((r) => [r.path, r.head_sha, r.pull_requests?.map((p) => p.number)])).toEqual([[".github/workflows/pr.yml", pull.head.sha, [pull.number]]]);
    expect([...prRuns.values()].every((r) => r.status === "completed")).toBe(true);
  });

  test("an environment that deploys from the default branch only refuses a pull_request run; a GITHUB_TOKEN's events start nothing", async () => {
    const guarded = `name: guarded
on: [pull_request]
permissions: {issues: write}
jobs:
  deploy:
    runs-on: ubuntu-latest
    environment: protected
    steps:
      - run: echo deployed
  label:
    runs-on: ubuntu-latest
    steps:
      - run: |
          curl -s -o /dev/null -X POST -H "Authorization: token \${{ github.token }}" -d '{"body":"hi"}' "$GITHUB_API_URL/repos/acme/app/issues/\${{ github.event.pull_request.number }}/comments"
`;
    const comment = `name: on comment
on: [issue_comment]
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - run: echo heard
`;
    const mona = await world({ ".github/workflows/guarded.yml": guarded, ".github/workflows/comment.yml": comment });
    const main = fake.repo(REPO).refs.get("refs/heads/main") as string;
    fake.setRef(REPO, "feature", main);
    fake.commit(REPO, "feature", "x", { "x.txt": "x\n" });
    const { data: pull } = await mona.pulls.create({ ...repo, head: "feature", base: "main", title: "x" });
    await actions.runUntilQuiet();
    const run = actions.runs.find((r) => r.workflow.name === "guarded");
    expect(run?.jobs.get("deploy")).toMatchObject({ result: "failure", reason: `Branch "refs/pull/${pull.number}/merge" is not allowed to deploy to protected due to environment protection rules.` });
    expect(run?.jobs.get("label")?.result).toBe("success");
    expect([...fake.repo(REPO).comments.values()].map((c) => c.user)).toEqual(["github-actions[bot]"]);
    expect(actions.runs.filter((r) => r.workflow.name === "on comment")).toEqual([]);
    await mona.issues.createComment({ ...repo, issue_number: pull.number, body: "by a person" });
    await actions.runUntilQuiet();
    expect(actions.runs.filter((r) => r.workflow.name === "on comment").map((r) => r.conclusion)).toEqual(["success"]);
  });
});
