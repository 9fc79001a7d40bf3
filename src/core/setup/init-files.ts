/**
 * What `bosun init` and the onboarding pull request write: the configuration, the issue form and
 * the workflows for one agent, each byte for byte what docs/workflows/ ships (setup-templates.ts).
 */
import { ISSUE_FORM_TEMPLATE, WORKFLOW_TEMPLATES } from "./setup-templates.js";

/** The agents `bosun init --agent` knows: the four presets, and `command` (your own script). */
export const INIT_AGENTS = ["claude-code", "codex", "aider", "openhands", "command"] as const;
export type InitAgent = (typeof INIT_AGENTS)[number];

/** The agent `bosun init` and the onboarding pull request set up when none is named. */
export const DEFAULT_INIT_AGENT: InitAgent = "claude-code";

export interface InitOptions {
  readonly agent: InitAgent;
  /** No Bosun App server: the scheduler runs as a workflow (`bosun-schedule.yml`). */
  readonly actionOnly: boolean;
  /** Also verify deployments (`bosun-verify.yml`). */
  readonly verify: boolean;
}

export interface InitFile {
  /** Repository-relative path, `/`-separated. */
  readonly path: string;
  readonly content: string;
}

export const CONFIG_FILE = ".github/bosun.yml";
export const ISSUE_FORM_FILE = ".github/ISSUE_TEMPLATE/bosun-brief.yml";
export const WORKFLOW_DIR = ".github/workflows";
/** The schema line editors read (yaml-language-server), as docs/app.md shows it. */
export const CONFIG_SCHEMA_LINE = "# yaml-language-server: $schema=https://raw.githubusercontent.com/bosun-dev/bosun/v1/schema/bosun-config.schema.json";

/** The work workflow's file name for an agent: the preset's own, or the generic one running your command. */
export function workWorkflowOf(agent: InitAgent): string {
  return agent === "command" ? "bosun-work.yml" : `bosun-work-${agent}.yml`;
}

/** The workflow each of the work workflow's matrix legs calls (one item: check, agent, land). */
export function workItemWorkflowOf(agent: InitAgent): string {
  return workWorkflowOf(agent).replace(/\.yml$/, "-item.yml");
}

/** The workflows the setup needs, by file name, in the order they are written. */
export function initWorkflows(options: InitOptions): string[] {
  return [
    "bosun-acceptance.yml",
    "bosun-gate.yml",
    // bosun-separation.yml runs on this relay's completion: a review event alone reads the PR's workflow file.
    "bosun-review-relay.yml",
    "bosun-separation.yml",
    workWorkflowOf(options.agent),
    workItemWorkflowOf(options.agent),
    ...(options.actionOnly ? ["bosun-schedule.yml"] : []),
    ...(options.verify ? ["bosun-verify.yml"] : []),
  ];
}

/** `.github/bosun.yml` for one agent: one pool dispatching its work workflow. */
export function initConfig(agent: InitAgent): string {
  return [
    CONFIG_SCHEMA_LINE,
    "# Bosun's configuration: every field is in docs/app.md; `npx bosun config check` validates it.",
    "# One pool of two workers, each a run of the work workflow below (docs/dispatch.md).",
    "pools:",
    "  default:",
    "    size: 2",
    "    # batch: the items granted together go out as one run, a matrix leg each (one dispatch, not one an item).",
    `    dispatch: { kind: workflow, workflow: ${workWorkflowOf(agent)}, batch: true }`,
    "",
  ].join("\n");
}

/** Every file of the setup, in the order they are written. */
export function initFiles(options: InitOptions): InitFile[] {
  return [
    { path: CONFIG_FILE, content: initConfig(options.agent) },
    { path: ISSUE_FORM_FILE, content: ISSUE_FORM_TEMPLATE },
    ...initWorkflows(options).map((name) => ({ path: `${WORKFLOW_DIR}/${name}`, content: workflowTemplate(name) })),
  ];
}

/** A shipped workflow's text; throws for a name docs/workflows/ does not ship (a programming error). */
export function workflowTemplate(name: string): string {
  const text = WORKFLOW_TEMPLATES[name];
  if (text === undefined) throw new Error(`no workflow template named ${name}`);
  return text;
}

/** The model keys an agent's work workflow hands its agent (`secrets.X` other than the App's own). */
export function agentSecretsOf(agent: InitAgent): string[] {
  const text = workflowTemplate(workItemWorkflowOf(agent));
  return [...new Set([...text.matchAll(/\bsecrets\.([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? "").filter((n) => !n.startsWith("BOSUN_APP_")))];
}
