/** A call's `with:` into typed inputs, as GitHub's parser checks them, as a table. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "../../fake-github/create-fake-github.js";
import { callWorkflow } from "./call-workflow.js";
import type { Value } from "./expression-values.js";
import { parseWorkflow } from "./parse-workflow.js";
import type { JobFrame, PlayedRun } from "./player-types.js";

const CALLED = `on:
  workflow_call:
    inputs:
      flag: {type: boolean}
      count: {type: number, default: 3}
      name: {type: string}
      must: {type: string, required: true}
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - run: echo
`;

let fake: FakeGitHub;
let run: PlayedRun;
beforeAll(async () => {
  fake = await createFakeGitHub({ seed: 1 });
  const repo = fake.addRepo({ fullName: "acme/app", files: { ".github/workflows/called.yml": CALLED } });
  const sha = repo.refs.get("refs/heads/main") as string;
  const workflow = parseWorkflow(".github/workflows/caller.yml", "on: workflow_dispatch\njobs:\n  call:\n    uses: ./.github/workflows/called.yml\n");
  run = { id: 1, repo, fullName: "acme/app", workflow, event: "workflow_dispatch", payload: {}, sha, ref: "refs/heads/main", actor: "mona", inputs: {}, jobs: new Map(), pendingJobs: [] };
});
afterAll(async () => {
  await fake.close();
});

const inputsOf = (withYaml: string): Record<string, Value> => {
  const caller = parseWorkflow(".github/workflows/caller.yml", `on: workflow_dispatch\njobs:\n  call:\n    uses: ./.github/workflows/called.yml\n    with: ${withYaml}\n`);
  const frame: JobFrame = { workflow: caller, inputs: {}, secrets: {}, prefix: "", permissions: undefined, depth: 0 };
  const job = caller.jobs[0];
  if (job === undefined) throw new Error("no job");
  return callWorkflow(run, frame, job, "call / ", { contexts: { matrix: { n: 7, b: true }, inputs: {}, github: {}, vars: {}, needs: {}, strategy: null } }).inputs;
};

describe("a call's inputs", () => {
  test.each<[string, Record<string, Value>]>([
    ["{must: x}", { flag: false, count: 3, name: "", must: "x" }],
    ["{must: x, flag: true, count: 5, name: 12}", { flag: true, count: 5, name: "12", must: "x" }],
    ["{must: '${{ matrix.n }}', count: '${{ matrix.n }}', flag: '${{ matrix.b }}'}", { flag: true, count: 7, name: "", must: "7" }],
  ])("with: %s", (withYaml, expected) => {
    expect(inputsOf(withYaml)).toEqual(expected);
  });

  test.each<[string, string]>([
    ["{name: x}", "Input must is required, but not provided while calling."],
    ["{must: x, other: y}", "Invalid input, other is not defined in the referenced workflow."],
    ["{must: x, flag: 'true'}", "Invalid input, flag: expected a boolean, got 'true'"],
    ["{must: x, count: '5'}", "Invalid input, count: expected a number, got '5'"],
  ])("with: %s fails: %s", (withYaml, error) => {
    expect(() => inputsOf(withYaml)).toThrow(error);
  });
});
