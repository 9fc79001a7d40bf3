import { parse } from "yaml";

/**
 * Bosun's trust rules for GitHub workflows (DESIGN.md, "Trust boundaries"), checked on the
 * workflow files we ship. GitHub reads a `pull_request` / `pull_request_review` run's workflow file
 * from the pull request's merge commit, so such a workflow is the PR's to change: it must hold
 * nothing worth stealing. Code from the PR may run in any job that checks it out.
 */
export interface TrustFinding {
  readonly rule: "pr-workflow-writes" | "pr-workflow-secret" | "pr-workflow-permissions" | "head-checkout-credentials" | "head-checkout-writes" | "head-checkout-secret" | "unpinned-action" | "run-name-comment" | "secret-outside-environment" | "agent-job-credentials";
  readonly job?: string;
  readonly message: string;
}

/** Triggers whose workflow file GitHub takes from the pull request itself. */
export const PR_CONTROLLED_TRIGGERS = ["pull_request", "pull_request_review", "pull_request_review_comment"];

/** Bosun's own action may be used at a major tag: no release commit exists to pin to when the docs are read (docs/security.md). */
const OWN_ACTION = /^bosun-dev\/bosun@v\d+$/;
const PINNED = /^[^@\s]+@[0-9a-f]{40}$/;
// A checkout ref naming the PR's head (pull_request_target and workflow_run check out the base otherwise).
// merge_commit_sha is the PR's code merged into the base: PR code as much as the head is.
const HEAD_REF = /github\.event\.pull_request\.head\.|github\.event\.pull_request\.merge_commit_sha|github\.head_ref|github\.event\.workflow_run\.head_(sha|branch)|refs\/pull\//;
// Both spellings of a secret, `secrets.NAME` and `secrets['NAME']`, and the whole context (`toJSON(secrets)`).
const SECRET = /\bsecrets(?:\.([A-Za-z0-9_-]+)|\[\s*\\?['"]([^'"\\]+)\\?['"]\s*\]|\b(?![.[]))/g;
// Names of secrets that are GitHub credentials (an App's key or id, a token): never in an agent's job.
const GITHUB_CREDENTIAL = /APP|PRIVATE|GITHUB|GH_|TOKEN|PAT\b|\(all secrets\)/i;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});

/** Every finding in one workflow file's text; an empty list means it follows every rule. */
export function workflowTrustFindings(text: string): TrustFinding[] {
  const workflow = obj(parse(text));
  const findings: TrustFinding[] = [];
  const on = workflow["on"];
  const triggers = typeof on === "string" ? [on] : Array.isArray(on) ? on.map(String) : Object.keys(obj(on));
  const prControlled = triggers.some((t) => PR_CONTROLLED_TRIGGERS.includes(t));
  const jobs = obj(workflow["jobs"]);

  for (const [id, jobValue] of Object.entries(jobs)) {
    const job = obj(jobValue);
    const permissions = "permissions" in job ? job["permissions"] : workflow["permissions"];
    const writes = grantsWrite(permissions);
    const jobText = JSON.stringify(job);
    const secrets = [...jobText.matchAll(SECRET)].map((m) => m[1] ?? m[2] ?? "(all secrets)");
    const steps = Array.isArray(job["steps"]) ? job["steps"].map(obj) : [];
    const checkouts = steps.filter((s) => typeof s["uses"] === "string" && s["uses"].startsWith("actions/checkout@"));

    if (prControlled) {
      if (permissions === undefined) findings.push({ rule: "pr-workflow-permissions", job: id, message: `job '${id}': a workflow the PR controls must declare its permissions (the default token may write)` });
      if (writes.length > 0) findings.push({ rule: "pr-workflow-writes", job: id, message: `job '${id}': a workflow the PR controls grants write (${writes.join(", ")})` });
      if (secrets.length > 0) findings.push({ rule: "pr-workflow-secret", job: id, message: `job '${id}': a workflow the PR controls uses secrets (${secrets.join(", ")})` });
    }
    // In a workflow the PR controls any checkout is PR code (the merge commit); elsewhere, a ref naming the head.
    const headCheckouts = checkouts.filter((s) => prControlled || HEAD_REF.test(JSON.stringify(obj(s["with"])["ref"] ?? "")));
    if (headCheckouts.length > 0) {
      for (const s of headCheckouts) {
        const persist = obj(s["with"])["persist-credentials"];
        if (persist !== false && persist !== "false") findings.push({ rule: "head-checkout-credentials", job: id, message: `job '${id}': checks out the PR's code without persist-credentials: false (the token stays in the git config for that code to read)` });
      }
      if (writes.length > 0) findings.push({ rule: "head-checkout-writes", job: id, message: `job '${id}': checks out the PR's code with write permission (${writes.join(", ")})` });
      if (secrets.length > 0) findings.push({ rule: "head-checkout-secret", job: id, message: `job '${id}': checks out the PR's code and uses secrets (${secrets.join(", ")})` });
    }
    // A job that runs an agent runs code nothing bounds: it must hold no GitHub credential at all
    // (its children can read the step's environment and inputs), only the agent's model key.
    // An agent runs wherever a step names one (`agent-command`, a built-in `agent`), or runs `mode: work`
    // in any phase but the credentialed check and land.
    const runsAgent = steps.some((st) => {
      const w = obj(st["with"]);
      return w["agent-command"] !== undefined || w["agent"] !== undefined || w["work-phase"] === "agent" || (w["mode"] === "work" && w["work-phase"] !== "check" && w["work-phase"] !== "land");
    });
    if (runsAgent) {
      const held = [
        ...steps.filter((st) => typeof st["uses"] === "string" && st["uses"].startsWith("actions/create-github-app-token@")).map(() => "mints an App token"),
        ...secrets.filter((n) => GITHUB_CREDENTIAL.test(n)).map((n) => `secret ${n}`),
        ...(/github\.token/.test(jobText) ? ["github.token"] : []),
        ...steps.flatMap((st) => { const w = obj(st["with"]); return ["github-token", "token"].filter((k) => k in w && String(w[k]).trim() !== "").map((k) => `input ${k}: ${String(w[k])}`); }),
        ...(permissions === undefined ? ["no declared permissions (the default token may write)"] : writes.map((w) => `${w}: write`)),
        ...checkouts.filter((st) => { const p = obj(st["with"])["persist-credentials"]; return p !== false && p !== "false"; }).map(() => "a checkout that keeps its credentials"),
      ];
      if (held.length > 0) findings.push({ rule: "agent-job-credentials", job: id, message: `job '${id}' runs an agent and holds GitHub credentials (${held.join("; ")}): give the agent its own job with none, and land from another` });
    }
    const otherSecrets = secrets.filter((s) => s !== "GITHUB_TOKEN");
    // A job that calls a workflow of this repository and names what it passes is no reader: GitHub
    // uses a called job's environment secret over the value passed under its name, and the called
    // file is judged on its own (each of its jobs reading a secret must name an environment).
    // `secrets: inherit` passes every secret, and stays a finding.
    const callsLocalByName = typeof job["uses"] === "string" && job["uses"].startsWith("./.github/workflows/") && typeof job["secrets"] === "object" && job["secrets"] !== null;
    if (otherSecrets.length > 0 && job["environment"] === undefined && !callsLocalByName) {
      findings.push({ rule: "secret-outside-environment", job: id, message: `job '${id}': uses ${otherSecrets.join(", ")} without an environment (repository secrets are readable by any same-repository PR's own workflow; keep them in an environment limited to the default branch)` });
    }
    for (const s of steps) {
      const uses = s["uses"];
      if (typeof uses !== "string" || uses.startsWith("./") || uses.startsWith("docker://")) continue;
      if (!PINNED.test(uses) && !OWN_ACTION.test(uses)) findings.push({ rule: "unpinned-action", job: id, message: `job '${id}': '${uses}' is not pinned to a full commit SHA (a tag can be moved to other code)` });
    }
  }

  const runName = /^run-name:[ \t]*(.*)$/m.exec(text)?.[1] ?? "";
  if (runName !== "" && !/^["']/.test(runName.trim()) && /\s#/.test(runName)) {
    findings.push({ rule: "run-name-comment", message: `run-name '${runName.trim()}' is cut at '#' (a YAML comment): quote it, or every run is titled '${String(workflow["run-name"] ?? "")}'` });
  }
  return findings;
}

function grantsWrite(permissions: unknown): string[] {
  if (permissions === "write-all") return ["write-all"];
  return Object.entries(obj(permissions))
    .filter(([, level]) => level === "write")
    .map(([scope]) => scope);
}
