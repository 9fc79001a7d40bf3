/**
 * How a repository's copy of a shipped workflow differs from the template in what decides trust:
 * triggers, token permissions, environment, secrets, checkouts, the steps of jobs that hold a
 * credential, and the versions actions are pinned at. Everything else (names, comments, the
 * acceptance COMMAND, setup steps in jobs that hold nothing) is the maintainer's to change.
 */
import type { JobShape, StepShape, WorkflowShape } from "./workflow-shape.js";

const RANK: Readonly<Record<string, number>> = { none: 0, read: 1, write: 2 };
const SHA = /^[0-9a-f]{40}$/;
/** Bosun's own action may stay at its major tag until the release commit is known (docs/security.md). */
const OWN_ACTION = "bosun-dev/bosun";
const MAJOR_TAG = /^v\d+$/;

/** A job that can hurt if it runs the wrong code: it holds the App's key, a secret, or a token that writes. */
function holdsCredential(job: JobShape): boolean {
  return (
    job.environment !== null ||
    job.secrets.length > 0 ||
    Object.values(job.permissions ?? { "*": "write" }).some((l) => l === "write") ||
    job.steps.some((s) => s.kind === "actions/create-github-app-token" || (s.kind === OWN_ACTION && (s.with["github-token"] ?? "") !== ""))
  );
}

function level(permissions: Readonly<Record<string, string>>, scope: string): number {
  return RANK[permissions[scope] ?? permissions["*"] ?? "none"] ?? 0;
}

function describeStep(step: StepShape): string {
  return step.kind === "run" ? "a run: step" : step.kind;
}

/** Every trust-relevant difference, one sentence each; empty when the copy keeps the template's trust. */
export function compareWorkflow(actual: WorkflowShape, template: WorkflowShape): string[] {
  const out: string[] = [];
  const actualTriggers = Object.keys(actual.triggers).sort();
  const templateTriggers = Object.keys(template.triggers).sort();
  for (const t of actualTriggers.filter((t) => !templateTriggers.includes(t))) out.push(`it runs on ${t}, which the template does not (the trigger decides whose copy of the file GitHub runs)`);
  for (const t of templateTriggers.filter((t) => !actualTriggers.includes(t))) out.push(`it no longer runs on ${t}`);
  for (const t of templateTriggers.filter((t) => actualTriggers.includes(t) && actual.triggers[t] !== template.triggers[t])) out.push(`its ${t} trigger follows ${actual.triggers[t] ?? ""}, the template's ${template.triggers[t] ?? ""}`);

  for (const id of Object.keys(actual.jobs).filter((id) => !(id in template.jobs))) out.push(`job '${id}' is not in the template`);
  for (const id of Object.keys(template.jobs).filter((id) => !(id in actual.jobs))) out.push(`job '${id}' is missing`);

  for (const [id, want] of Object.entries(template.jobs)) {
    const have = actual.jobs[id];
    if (have === undefined) continue;
    const at = `job '${id}'`;
    if (have.calls !== undefined || want.calls !== undefined) {
      // The called file is a workflow of its own, compared with its own template (doctor reads what a dispatched workflow calls).
      if (have.calls !== want.calls) out.push(`${at} calls ${have.calls === undefined ? "no reusable workflow" : `the reusable workflow ${have.calls}`}, the template ${want.calls ?? "none"}: its steps are not the template's to compare`);
      const handed = have.secrets.filter((s) => !want.secrets.includes(s));
      if (handed.length > 0) out.push(`${at} hands the workflow it calls secrets the template does not: ${handed.join(", ")}`);
      continue;
    }
    if (have.permissions === null && want.permissions !== null) out.push(`${at} declares no permissions, so its token gets the repository's default (which may write)`);
    else if (have.permissions !== null && want.permissions !== null) {
      const wider = Object.keys(have.permissions).filter((scope) => level(have.permissions ?? {}, scope) > level(want.permissions ?? {}, scope));
      if (wider.length > 0) out.push(`${at} grants its token more than the template: ${wider.map((s) => `${s}: ${have.permissions?.[s] ?? ""}`).join(", ")}`);
    }
    if (have.environment !== want.environment) out.push(`${at} runs in ${have.environment === null ? "no environment" : `environment '${have.environment}'`}, the template in ${want.environment === null ? "none" : `'${want.environment}'`}`);
    const extraSecrets = have.secrets.filter((s) => !want.secrets.includes(s));
    if (extraSecrets.length > 0) out.push(`${at} reads secrets the template does not: ${extraSecrets.join(", ")}`);

    const wantCheckouts = want.steps.filter((s) => s.kind === "actions/checkout");
    for (const c of have.steps.filter((s) => s.kind === "actions/checkout")) {
      const ref = c.with["ref"] ?? "";
      if (!wantCheckouts.some((w) => (w.with["ref"] ?? "") === ref)) out.push(`${at} checks out ${ref === "" ? "the triggering commit" : ref}, which the template does not${holdsCredential(want) ? " — code it checks out runs beside the job's credentials" : ""}`);
      if (wantCheckouts.some((w) => w.with["persist-credentials"] === "false") && c.with["persist-credentials"] !== "false") out.push(`${at} checks out without persist-credentials: false (the token stays on disk for the checked-out code)`);
    }

    if (holdsCredential(want)) {
      const kinds = (steps: readonly StepShape[]) => steps.map((s) => s.kind);
      if (JSON.stringify(kinds(have.steps)) !== JSON.stringify(kinds(want.steps))) {
        const added = have.steps.filter((s, i) => s.kind !== want.steps[i]?.kind).map(describeStep);
        out.push(`${at} holds a credential and its steps differ from the template's (${added.length > 0 ? `it has ${[...new Set(added)].join(", ")}` : "steps removed"}): a step added here runs with the App's key or token`);
      }
      const wantOwn = want.steps.filter((s) => s.kind === OWN_ACTION);
      have.steps
        .filter((s) => s.kind === OWN_ACTION)
        .forEach((s, i) => {
          for (const input of ["mode", "work-phase", "github-token"]) {
            const w = wantOwn[i]?.with[input];
            if (w !== undefined && s.with[input] !== w) out.push(`${at} runs ${OWN_ACTION} with ${input}: ${s.with[input] ?? "(unset)"}, the template with ${input}: ${w}`);
          }
        });
    }

    for (const s of have.steps) {
      if (s.kind === "run" || s.kind.startsWith("./")) continue;
      const version = s.version ?? "";
      if (s.kind === OWN_ACTION ? !(MAJOR_TAG.test(version) || SHA.test(version)) : !SHA.test(version)) {
        out.push(`${at} uses ${s.kind}@${version === "" ? "(no version)" : version}: ${s.kind === OWN_ACTION ? "pin Bosun's action to a release tag or, better, its commit" : "not pinned to a full commit SHA, so whoever moves the tag changes what runs"}`);
      }
    }
  }
  return out;
}
