import type { ConfigProblem } from "./parse-config.js";

/**
 * The problems of a `.github/bosun.yml` in words, one line each, as the Action's log and
 * `bosun config check` print them (the dashboard shows the same list as markdown): `field: message`,
 * without saying the field twice when the message already starts with it.
 */
export function formatConfigProblems(problems: readonly ConfigProblem[]): string[] {
  return problems.map((p) => (p.message.startsWith(`${p.field} `) || p.message.startsWith(`${p.field}:`) ? p.message : `${p.field}: ${p.message}`));
}
