import type { Brief } from "../brief/brief.js";

/** Where the work goes once the agent stops: a pull request on GitHub, or the working tree locally. */
export interface PromptTarget {
  /** The GitHub issue the item is, when there is one: the pull request closes it. */
  readonly issue?: number;
  /** The branch Bosun pushes the agent's changes to. */
  readonly branch?: string;
  /** The brief's hash as approved, named in the pull request. */
  readonly briefHash?: string;
  /** The file $BOSUN_RESULT names (set by the dispatcher). */
  readonly resultFile?: string;
  /** The agent can write $BOSUN_RESULT, and must declare there that it finished (see combineStops). */
  readonly explicitFinish?: boolean;
}

const list = (items: readonly string[], none: string): string[] => (items.length === 0 ? [`- ${none}`] : items.map((i) => `- ${i}`));

/**
 * Renders a brief into an agent's prompt: every part of it, in order, and how to finish. The
 * same text for every agent, so what an agent was told does not depend on which one ran; the
 * guardrails that enforce it are set apart, by each preset.
 */
export function renderBriefPrompt(brief: Brief, target: PromptTarget = {}): string {
  const finish =
    target.issue === undefined
      ? ["Leave your changes in the working tree. Do not push and do not open a pull request: Bosun collects the changes when you stop."]
      : [
          `Leave your changes in the working tree. Do not push, do not create branches, do not open a pull request yourself: Bosun commits your changes to the branch \`${target.branch ?? `bosun/${target.issue}`}\` and opens exactly one pull request for them, whose body says \`Closes #${target.issue}\`${target.briefHash === undefined ? "" : ` and names the brief ${target.briefHash}`}. A retry continues on that same branch and pull request.`,
        ];
  return [
    `# Task ${brief.id}`,
    "",
    "## Goal",
    "",
    brief.goal,
    "",
    "## Constraints",
    "",
    "You may change only files matching these paths (gitignore patterns); any other change fails review:",
    "",
    ...brief.constraints.paths.map((p) => `- \`${p}\``),
    "",
    "Notes:",
    "",
    ...list(brief.constraints.notes, "(none)"),
    "",
    "## Non-goals",
    "",
    "Do not do any of these, even partly:",
    "",
    ...list(brief.non_goals, "(none)"),
    "",
    "## Acceptance",
    "",
    `The work is accepted only if this command exits 0 (it may run for up to ${brief.acceptance.timeout}s). It is the one shell command you may run:`,
    "",
    "```sh",
    brief.acceptance.command,
    "```",
    "",
    "## Size cap",
    "",
    `Change at most ${brief.size_cap} lines in total (added plus deleted). A larger change fails review.`,
    "",
    "## Budget",
    "",
    `At most ${brief.budget.steps} steps and ${brief.budget.tokens} tokens; you are stopped after ${brief.budget.wall_clock}s.`,
    "",
    "## How to finish",
    "",
    ...finish,
    "",
    ...(target.explicitFinish === true
      ? [
          'When the work is finished and the acceptance command passes, write one line of JSON to the file named by the environment variable BOSUN_RESULT (its path is also given below): `{"kind": "done"}`. Stopping without it is not finishing.',
          "",
          'If you cannot finish (the goal is unclear, or it needs a change outside the allowed paths), write `{"kind": "blocked", "reason": "<why, one sentence>"}` to that file instead, and stop.',
        ]
      : ["If you cannot finish (the goal is unclear, or it needs a change outside the allowed paths), say so in one sentence and stop without changing anything."]),
    ...(target.resultFile === undefined || target.explicitFinish !== true ? [] : ["", `BOSUN_RESULT: \`${target.resultFile}\``]),
    "",
  ].join("\n");
}
