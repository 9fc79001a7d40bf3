import { describe, expect, it } from "vitest";
import type { TrustFinding } from "./workflow-trust-rules.js";
import { workflowTrustFindings } from "./workflow-trust-rules.js";

const CHECKOUT = "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1";

/** A workflow with one job of the given steps; `head` is the workflow's on/permissions header. */
function workflow(head: string, job: string): string {
  return `name: x\n${head}\njobs:\n  j:\n    runs-on: ubuntu-latest\n${job}`;
}

// The work workflow shipped before: the agent ran in the job that minted the App token.
const OLD_WORK = `# .github/workflows/bosun-work.yml
# The workflow a \`workflow\` pool dispatches. Quote run-name: unquoted, everything after \`#\` is a
# YAML comment, every run is titled "bosun" and the scheduler cannot match runs to items.
name: bosun work
run-name: "bosun #\${{ inputs.item }} epoch \${{ inputs.epoch }}"
on:
  workflow_dispatch:
    inputs:
      item:
        required: true
      epoch:
        required: true
      brief_hash:
        required: true
permissions:
  contents: read
jobs:
  work:
    runs-on: ubuntu-latest
    environment: bosun
    steps:
      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1
        with:
          persist-credentials: false
      - uses: actions/create-github-app-token@1b10c78c7865c340bc4f6099eb2f838309f1e8c3 # v3.1.1
        id: app
        with:
          client-id: \${{ secrets.BOSUN_APP_CLIENT_ID }}
          private-key: \${{ secrets.BOSUN_APP_KEY }}
      - uses: bosun-dev/bosun@v1
        env:
          # Handed to the agent by name (pass-env); nothing else of this job's environment is.
          ANTHROPIC_API_KEY: \${{ secrets.ANTHROPIC_API_KEY }}
        with:
          mode: work
          github-token: \${{ steps.app.outputs.token }}
          bot-login: \${{ steps.app.outputs.app-slug }}[bot]
          item: \${{ inputs.item }}
          epoch: \${{ inputs.epoch }}
          brief-hash: \${{ inputs.brief_hash }}
          agent-command: ./scripts/run-agent.sh
          pass-env: ANTHROPIC_API_KEY
`;

// Each row breaks exactly one rule (or one family) and must be flagged by it.
const broken: [string, string, TrustFinding["rule"]][] = [
  ["a pull_request workflow that may write checks", workflow("on: pull_request\npermissions:\n  checks: write", "    steps:\n      - run: echo"), "pr-workflow-writes"],
  ["a pull_request_review workflow with write-all", workflow("on:\n  pull_request_review:\npermissions: write-all", "    steps:\n      - run: echo"), "pr-workflow-writes"],
  ["a pull_request workflow with no permissions (the default may write)", workflow("on: pull_request", "    steps:\n      - run: echo"), "pr-workflow-permissions"],
  ["a pull_request workflow whose job grants itself write", workflow("on: pull_request\npermissions: {}", "    permissions:\n      statuses: write\n    steps:\n      - run: echo"), "pr-workflow-writes"],
  ["a pull_request workflow that reads a secret", workflow("on: pull_request\npermissions: {}", "    steps:\n      - run: echo\n        env:\n          K: ${{ secrets.NPM_TOKEN }}"), "pr-workflow-secret"],
  ["a pull_request checkout that keeps its credentials", workflow("on: pull_request\npermissions:\n  contents: read", `    steps:\n      - uses: ${CHECKOUT}\n      - run: npm test`), "head-checkout-credentials"],
  ["pull_request_target checking out the head with credentials", workflow("on: pull_request_target\npermissions:\n  contents: read", `    steps:\n      - uses: ${CHECKOUT}\n        with:\n          ref: \${{ github.event.pull_request.head.sha }}`), "head-checkout-credentials"],
  ["pull_request_target checking out the head with write", workflow("on: pull_request_target\npermissions:\n  checks: write", `    steps:\n      - uses: ${CHECKOUT}\n        with:\n          ref: \${{ github.event.pull_request.head.sha }}\n          persist-credentials: false`), "head-checkout-writes"],
  ["workflow_run checking out the run's head with a secret", workflow("on:\n  workflow_run:\n    workflows: [a]\npermissions: {}", `    environment: e\n    steps:\n      - uses: ${CHECKOUT}\n        with:\n          ref: \${{ github.event.workflow_run.head_sha }}\n          persist-credentials: false\n      - run: make\n        env:\n          K: \${{ secrets.DEPLOY_KEY }}`), "head-checkout-secret"],
  ["an action at a tag", workflow("on: push\npermissions: {}", "    steps:\n      - uses: actions/checkout@v4\n        with:\n          persist-credentials: false"), "unpinned-action"],
  ["an action at a short SHA", workflow("on: push\npermissions: {}", "    steps:\n      - uses: some/action@3d3c42e"), "unpinned-action"],
  ["another repository's action called bosun at a tag", workflow("on: push\npermissions: {}", "    steps:\n      - uses: mallory/bosun@v1"), "unpinned-action"],
  ["an unquoted run-name with #", `name: w\nrun-name: bosun #\${{ inputs.item }} epoch \${{ inputs.epoch }}\non: workflow_dispatch\npermissions: {}\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo`, "run-name-comment"],
  ["a pull_request workflow that reads a secret by bracket", workflow("on: pull_request\npermissions: {}", "    steps:\n      - run: echo\n        env:\n          K: ${{ secrets['NPM_TOKEN'] }}"), "pr-workflow-secret"],
  ["a pull_request workflow that hands over every secret", workflow("on: pull_request\npermissions: {}", "    steps:\n      - run: echo\n        env:\n          K: ${{ toJSON(secrets) }}"), "pr-workflow-secret"],
  ["pull_request_target checking out the merge commit with credentials", workflow("on: pull_request_target\npermissions:\n  contents: read", `    steps:\n      - uses: ${CHECKOUT}\n        with:\n          ref: \${{ github.event.pull_request.merge_commit_sha }}`), "head-checkout-credentials"],
  ["an agent job that mints the App token (the single-job work workflow shipped before)", OLD_WORK, "agent-job-credentials"],
  ["an agent job handed a bracketed App key", workflow("on: workflow_dispatch\npermissions: {}", "    environment: e\n    steps:\n      - uses: bosun-dev/bosun@v1\n        env:\n          K: ${{ secrets[\"BOSUN_APP_KEY\"] }}\n        with:\n          work-phase: agent\n          github-token: ''"), "agent-job-credentials"],
  ["a work step with a built-in agent and the App token (a per-agent single-job workflow)", workflow("on: workflow_dispatch\npermissions:\n  contents: read", "    environment: e\n    steps:\n      - uses: actions/create-github-app-token@1b10c78c7865c340bc4f6099eb2f838309f1e8c3\n        id: app\n        with:\n          app-id: ${{ vars.BOSUN_APP_ID }}\n          private-key: ${{ secrets.BOSUN_APP_KEY }}\n      - uses: bosun-dev/bosun@v1\n        with:\n          mode: work\n          agent: claude-code\n          github-token: ${{ steps.app.outputs.token }}"), "agent-job-credentials"],
  ["an agent job given the job's token", workflow("on: workflow_dispatch\npermissions: {}", "    steps:\n      - uses: bosun-dev/bosun@v1\n        with:\n          agent-command: ./agent\n          github-token: ${{ github.token }}"), "agent-job-credentials"],
  ["an agent job whose token may write", workflow("on: workflow_dispatch\npermissions:\n  contents: write", "    steps:\n      - uses: bosun-dev/bosun@v1\n        with:\n          agent-command: ./agent\n          github-token: ''"), "agent-job-credentials"],
  ["a repository secret in a trusted job with no environment", workflow("on: workflow_dispatch\npermissions: {}", "    steps:\n      - run: echo\n        env:\n          K: ${{ secrets.BOSUN_APP_KEY }}"), "secret-outside-environment"],
];

// The gate workflow these docs showed before: the PR could edit it, and its code could read the token.
const EARLIER_GATE = `# the gate workflow earlier docs showed: on pull_request, with write, head checked out with its credentials
name: bosun-gate
on:
  pull_request:
permissions:
  contents: read
  checks: write
  pull-requests: read
  issues: read
jobs:
  gate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          ref: \${{ github.event.pull_request.head.sha }}
      - run: npm ci
      - id: gate
        uses: bosun-dev/bosun@v1
        with:
          mode: gate
          github-token: \${{ secrets.GITHUB_TOKEN }}
`;

describe("the trust rules flag a workflow that breaks them", () => {
  it("the gate workflow earlier docs showed breaks six rules at once", () => {
    expect(new Set(workflowTrustFindings(EARLIER_GATE).map((f) => f.rule))).toEqual(new Set(["pr-workflow-writes", "pr-workflow-secret", "head-checkout-credentials", "head-checkout-writes", "head-checkout-secret", "unpinned-action"]));
  });

  it.each(broken)("%s", (_name, text, rule) => {
    expect(workflowTrustFindings(text).map((f) => f.rule)).toContain(rule);
  });

  it.each([
    ["a read-only pull_request job with a clean checkout", workflow("on: pull_request\npermissions:\n  contents: read", `    steps:\n      - uses: ${CHECKOUT}\n        with:\n          persist-credentials: false\n      - run: npm test`)],
    ["a workflow_run job with a secret in an environment, no PR checkout", workflow("on:\n  workflow_run:\n    workflows: [a]\npermissions: {}", "    environment: bosun\n    permissions:\n      checks: write\n    steps:\n      - run: echo\n        env:\n          K: ${{ secrets.BOSUN_APP_KEY }}")],
    ["a quoted run-name with #", `name: w\nrun-name: "bosun #\${{ inputs.item }}"\non: workflow_dispatch\npermissions: {}\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo`],
    ["Bosun's own action at its major tag, and local actions", workflow("on: push\npermissions: {}", "    steps:\n      - uses: bosun-dev/bosun@v1\n      - uses: ./")],
  ])("and passes %s", (_name, text) => {
    expect(workflowTrustFindings(text)).toEqual([]);
  });
});
