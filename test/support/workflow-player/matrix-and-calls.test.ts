/**
 * Matrices and local reusable workflows, in the shape of Bosun's batched work workflow: a dispatched
 * caller whose one job calls `item.yml` once per `include` entry of `fromJSON(inputs.items)`, and a
 * called check → agent → land. Judged from the player's per-leg job records and the fake's run.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { createActionsService, type ActionsService } from "./actions-service.js";
import { PROJECT_ROOT } from "./bosun-action-step.js";
import type { PlayedRun } from "./player-types.js";

const REPO = "acme/app";
let fake: FakeGitHub;
let actions: ActionsService;
afterEach(async () => {
  actions.close();
  await fake.close();
});

const CALLER = (job: { failFast?: boolean; uses?: string; secrets?: string; permissions?: string; include?: string } = {}) => `name: bosun work
run-name: "bosun \${{ inputs.title }}"
on:
  workflow_dispatch:
    inputs:
      title: { required: true, type: string }
      items: { required: true, type: string }
permissions: {}
jobs:
  item:
    strategy:
      fail-fast: ${String(job.failFast ?? false)}
      matrix:
        include: ${job.include ?? "${{ fromJSON(inputs.items) }}"}
    uses: ${job.uses ?? "./.github/workflows/item.yml"}
    with:
      item: \${{ matrix.item }}
      epoch: \${{ matrix.epoch }}
      brief_hash: \${{ matrix.brief_hash }}
${job.permissions === undefined ? "" : `    permissions: ${job.permissions}\n`}${job.secrets === undefined ? "    secrets: inherit" : job.secrets}
`;

const ITEM = (extra: { secrets?: string; checkPermissions?: string } = {}) => `name: bosun work item
on:
  workflow_call:
    inputs:
      item: {required: true, type: string}
      epoch: {required: true, type: string}
      brief_hash: {required: true, type: string}
${extra.secrets ?? ""}permissions: {}
jobs:
  check:
    runs-on: ubuntu-latest
    environment: bosun
${extra.checkPermissions === undefined ? "" : `    permissions: ${extra.checkPermissions}\n`}    outputs:
      brief: \${{ steps.check.outputs.brief }}
    steps:
      - id: check
        run: |
          echo "check item=\${{ inputs.item }} epoch=\${{ inputs.epoch }} hash=\${{ inputs.brief_hash }} run=\${{ github.run_id }} event=\${{ github.event_name }} title=\${{ github.event.inputs.title }} job=$GITHUB_JOB"
          echo "secrets: \${{ secrets.KEY != '' && 'repo' || 'no-repo' }} \${{ secrets.APP_KEY != '' && 'env' || 'no-env' }} \${{ secrets.PASSED != '' && 'passed' || 'not-passed' }}"
          echo "brief=brief-of-\${{ inputs.item }}" >> "$GITHUB_OUTPUT"
  agent:
    needs: check
    runs-on: ubuntu-latest
    permissions: {}
    steps:
      - run: test "\${{ inputs.item }}" != 13 && echo "agent got \${{ needs.check.outputs.brief }} for \${{ inputs.item }}"
  land:
    needs: [check, agent]
    if: always() && needs.check.result == 'success'
    runs-on: ubuntu-latest
    environment: bosun
    steps:
      - run: echo "land \${{ inputs.item }} agent=\${{ needs.agent.result }} brief=\${{ needs.check.outputs.brief }}"
`;

const ITEMS = [
  { item: "12", epoch: "3", brief_hash: "aa" },
  { item: "13", epoch: "1", brief_hash: "bb" },
  { item: "14", epoch: "7", brief_hash: "cc" },
];

async function world(files: Record<string, string>) {
  fake = await createFakeGitHub({ seed: 5 });
  fake.addRepo({ fullName: REPO, files: { "README.md": "# app\n", ...files } });
  fake.addToken("t-mona", "mona", { permissions: { [REPO]: "write" } });
  actions = createActionsService({ fake, repo: REPO, projectRoot: PROJECT_ROOT, secrets: { KEY: "repo-secret-value" }, environments: { bosun: { secrets: { APP_KEY: "env-secret-value" } } } });
  return createTestOctokit(fake.url, "t-mona");
}

/** Dispatches the caller with `items` and plays it job by job; answers the run and how many jobs were played. */
async function dispatch(files: Record<string, string>, items: readonly object[] = ITEMS): Promise<{ run: PlayedRun; played: number }> {
  const mona = await world(files);
  await mona.actions.createWorkflowDispatch({ owner: "acme", repo: "app", workflow_id: "work.yml", ref: "main", inputs: { title: "batch", items: JSON.stringify(items) } });
  await fake.webhooks.flush();
  let played = 0;
  while (await actions.runNextJob()) played++;
  const run = actions.runs[0];
  if (run === undefined) throw new Error("no run started");
  return { run, played };
}

const results = (run: PlayedRun) => Object.fromEntries([...run.jobs.values()].map((j) => [j.id, j.result]));
const logOf = (run: PlayedRun, key: string) => run.jobs.get(key)?.log.join("\n") ?? "";
const leg = (i: number) => `item (${Object.values(ITEMS[i] ?? {}).join(", ")})`;

describe("matrices and reusable workflows", () => {
  test("include from fromJSON: each leg's called jobs get its inputs and their own needs and outputs, with the caller's github context, one job at a time", async () => {
    const { run, played } = await dispatch({ ".github/workflows/work.yml": CALLER(), ".github/workflows/item.yml": ITEM() }, ITEMS.filter((i) => i.item !== "13"));
    expect(played).toBe(6);
    expect([...run.jobs.keys()]).toEqual([`${leg(0)} / check`, `${leg(0)} / agent`, `${leg(0)} / land`, leg(0), `${leg(2)} / check`, `${leg(2)} / agent`, `${leg(2)} / land`, leg(2), "item"]);
    for (const i of [0, 2]) {
      const { item, epoch, brief_hash: hash } = ITEMS[i] ?? { item: "", epoch: "", brief_hash: "" };
      expect(logOf(run, `${leg(i)} / check`)).toContain(`check item=${item} epoch=${epoch} hash=${hash} run=${run.id} event=workflow_dispatch title=batch job=check`);
      expect(logOf(run, `${leg(i)} / agent`)).toContain(`agent got brief-of-${item} for ${item}`);
      expect(logOf(run, `${leg(i)} / land`)).toContain(`land ${item} agent=success brief=brief-of-${item}`);
    }
    expect(run.jobs.get("item")?.result).toBe("success");
    expect(run.conclusion).toBe("success");
    expect(fake.repo(REPO).workflowRuns.get(run.id)).toMatchObject({ status: "completed", conclusion: "success", displayTitle: "bosun batch" });
  });

  test.each([
    { failFast: false, after: { check: "success", agent: "success", land: "success" }, item: "failure" },
    { failFast: true, after: { check: "cancelled", agent: "cancelled", land: "cancelled" }, item: "failure" },
  ])("a failing leg with fail-fast $failFast: the legs after it $after.check", async ({ failFast, after, item }) => {
    const { run } = await dispatch({ ".github/workflows/work.yml": CALLER({ failFast }), ".github/workflows/item.yml": ITEM() });
    expect(results(run)).toMatchObject({
      [`${leg(0)} / agent`]: "success",
      [`${leg(1)} / check`]: "success",
      [`${leg(1)} / agent`]: "failure",
      // always() && needs.check.result == 'success': the failed leg still lands its failure.
      [`${leg(1)} / land`]: "success",
      [leg(1)]: "failure",
      [`${leg(2)} / check`]: after.check,
      [`${leg(2)} / agent`]: after.agent,
      [`${leg(2)} / land`]: after.land,
      item,
    });
    expect(logOf(run, `${leg(1)} / land`)).toContain("land 13 agent=failure brief=brief-of-13");
    expect(run.conclusion).toBe("failure");
    expect(fake.repo(REPO).workflowRuns.get(run.id)?.conclusion).toBe("failure");
  });

  test.each([
    { how: "secrets: inherit", secrets: undefined, declared: "", seen: "secrets: repo env not-passed" },
    { how: "no secrets:", secrets: "", declared: "", seen: "secrets: no-repo no-env not-passed" },
    { how: "a secrets: map", secrets: "    secrets:\n      PASSED: ${{ secrets.KEY }}", declared: "    secrets:\n      PASSED: {required: true}\n", seen: "secrets: no-repo no-env passed" },
    { how: "a secrets: map naming the environment's secret", secrets: "    secrets:\n      APP_KEY: ${{ secrets.APP_KEY }}", declared: "    secrets:\n      APP_KEY: {required: false}\n", seen: "secrets: no-repo env not-passed" },
  ])("$how: the called jobs see $seen (an environment secret only under a name the caller passed, actions/runner#4453)", async ({ secrets, declared, seen }) => {
    const { run } = await dispatch({ ".github/workflows/work.yml": CALLER(secrets === undefined ? {} : { secrets }), ".github/workflows/item.yml": ITEM({ secrets: declared }) }, ITEMS.slice(0, 1));
    expect(logOf(run, `${leg(0)} / check`)).toContain(seen);
    expect(run.conclusion).toBe("success");
  });

  test.each([
    { why: "the called file has no workflow_call", caller: CALLER({ uses: "./.github/workflows/plain.yml" }), reason: "./.github/workflows/plain.yml: workflow_call key is not defined in the referenced workflow." },
    { why: "the include list is empty", items: [], caller: CALLER(), reason: "Error when evaluating 'strategy' for job 'item'. .github/workflows/work.yml: Matrix must define at least one vector" },
    { why: "a matrix vector is empty", caller: CALLER({ include: "[]\n        item: []" }), reason: "Error when evaluating 'strategy' for job 'item'. .github/workflows/work.yml: Matrix vector 'item' does not contain any values" },
    { why: "it is another repository's workflow", caller: CALLER({ uses: "acme/other/.github/workflows/item.yml@main" }), reason: "jobs.item.uses: the player calls only reusable workflows of the run's own repository (./.github/workflows/<file>.yml), not acme/other/.github/workflows/item.yml@main" },
    { why: "a required secret is not passed", caller: CALLER({ secrets: "" }), item: ITEM({ secrets: "    secrets:\n      PASSED: {required: true}\n" }), reason: "Secret PASSED is required, but not provided while calling." },
    { why: "a called job asks more than the caller grants", caller: CALLER(), item: ITEM({ checkPermissions: "{issues: write}" }), reason: /^Error calling workflow 'acme\/app\/\.github\/workflows\/item\.yml@[0-9a-f]{40}'\. The nested job 'check' is requesting 'issues: write', but is only allowed 'issues: none'\.$/ },
  ])("the calling job fails, naming why, when $why", async ({ caller, item, items, reason }) => {
    const plain = "name: plain\non: [push]\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ran\n";
    const { run, played } = await dispatch({ ".github/workflows/work.yml": caller, ".github/workflows/item.yml": item ?? ITEM(), ".github/workflows/plain.yml": plain }, items);
    expect(played).toBe(1);
    expect([...run.jobs.keys()]).toEqual(["item"]);
    expect(run.jobs.get("item")?.result).toBe("failure");
    expect(run.jobs.get("item")?.reason).toMatch(typeof reason === "string" ? new RegExp(`^${reason.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) : reason);
    expect(fake.repo(REPO).workflowRuns.get(run.id)?.conclusion).toBe("failure");
  });

  test.each([
    { artifact: "work", landed: ["landed made for 12", ""], agents: ["success", "failure"] },
    { artifact: "${{ format('work-{0}', matrix.item) }}", landed: ["landed made for 12", "landed made for 14"], agents: ["success", "success"] },
  ])("legs uploading artifact $artifact: a name is unique in the run (409 for the second), so each leg names its own", async ({ artifact, landed, agents }) => {
    const caller = `name: bosun work
on:
  workflow_dispatch:
    inputs:
      title: {required: true}
      items: {required: true}
jobs:
  item:
    strategy:
      fail-fast: false
      matrix:
        include: \${{ fromJSON(inputs.items) }}
    uses: ./.github/workflows/art.yml
    with: {item: "\${{ matrix.item }}", artifact: "${artifact}"}
`;
    const art = `on:
  workflow_call:
    inputs:
      item: {required: true, type: string}
      artifact: {required: true, type: string}
jobs:
  agent:
    runs-on: ubuntu-latest
    steps:
      - run: mkdir -p out && echo "made for \${{ inputs.item }}" > out/result.txt
      - uses: actions/upload-artifact@v7
        with: {name: "\${{ inputs.artifact }}", path: out/}
  land:
    needs: agent
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@v8
        with: {name: "\${{ inputs.artifact }}", path: in}
      - run: echo "landed $(cat in/result.txt)"
`;
    const { run } = await dispatch({ ".github/workflows/work.yml": caller, ".github/workflows/art.yml": art }, ITEMS.filter((i) => i.item !== "13"));
    const legs = ["item (12, 3, aa)", "item (14, 7, cc)"];
    expect(legs.map((l) => run.jobs.get(`${l} / agent`)?.result)).toEqual(agents);
    expect(legs.map((l) => (/landed made for \d+/.exec(logOf(run, `${l} / land`)) ?? [""])[0])).toEqual(landed);
    if (agents[1] === "failure") expect(run.jobs.get(`${legs[1]} / agent`)?.reason).toContain("(409) Conflict: an artifact with this name already exists on the workflow run");
  });

  test.each([
    { calledRoot: "", label: 200, ref: 403 },
    { calledRoot: "permissions: {}\n", label: 403, ref: 403 },
  ])("the calling job's permissions {issues: write} reach a called job that names none (called workflow's own: $calledRoot): labels $label, refs $ref", async ({ calledRoot, label, ref }) => {
    const caller = `name: caller
on: [workflow_dispatch]
permissions: {}
jobs:
  call:
    permissions: {issues: write}
    uses: ./.github/workflows/called.yml
`;
    const called = `on: workflow_call
${calledRoot}jobs:
  write:
    runs-on: ubuntu-latest
    steps:
      - run: |
          code() { curl -s -o /dev/null -w '%{http_code}' -H "Authorization: token \${{ github.token }}" "$@"; }
          echo "labels $(code -X POST -d '{"labels":["seen"]}' "$GITHUB_API_URL/repos/acme/app/issues/1/labels")"
          echo "ref $(code -X POST -d '{"ref":"refs/heads/x","sha":"'$GITHUB_SHA'"}' "$GITHUB_API_URL/repos/acme/app/git/refs")"
`;
    const mona = await world({ ".github/workflows/caller.yml": caller, ".github/workflows/called.yml": called });
    fake.addIssue(REPO, { title: "x" });
    await mona.actions.createWorkflowDispatch({ owner: "acme", repo: "app", workflow_id: "caller.yml", ref: "main" });
    await actions.runUntilQuiet();
    const run = actions.runs[0] as PlayedRun;
    expect(logOf(run, "call / write")).toContain(`labels ${label}`);
    expect(logOf(run, "call / write")).toContain(`ref ${ref}`);
    expect(results(run)).toEqual({ "call / write": "success", call: "success" });
  });

  test("plain axes: the cartesian product less exclude, include's extras, matrix and strategy in env and steps; needs sees the aggregate", async () => {
    const build = `name: build
on: [workflow_dispatch]
jobs:
  build:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        os: [linux, mac]
        node: [18, 20]
        exclude: [{os: mac, node: 18}]
        include: [{os: linux, extra: x}, {os: bsd, node: 22}]
    outputs:
      seen: \${{ steps.say.outputs.seen }}
    env:
      LEG: \${{ matrix.os }}-\${{ matrix.node }}
    steps:
      - id: say
        run: echo "leg $LEG extra=\${{ matrix.extra }} \${{ strategy.job-index }}/\${{ strategy.job-total }}" && echo "seen=$LEG" >> "$GITHUB_OUTPUT"
  after:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - run: echo "after \${{ needs.build.result }} \${{ needs.build.outputs.seen }}"
`;
    const mona = await world({ ".github/workflows/build.yml": build });
    await mona.actions.createWorkflowDispatch({ owner: "acme", repo: "app", workflow_id: "build.yml", ref: "main" });
    await actions.runUntilQuiet();
    const run = actions.runs[0] as PlayedRun;
    expect(results(run)).toEqual({ "build (linux, 18)": "success", "build (linux, 20)": "success", "build (mac, 20)": "success", "build (bsd, 22)": "success", build: "success", after: "success" });
    expect(logOf(run, "build (linux, 18)")).toContain("leg linux-18 extra=x 0/4");
    expect(logOf(run, "build (mac, 20)")).toContain("leg mac-20 extra= 2/4");
    expect(logOf(run, "build (bsd, 22)")).toContain("leg bsd-22 extra= 3/4");
    expect(logOf(run, "after")).toContain("after success bsd-22");
  });
});
