import { problemText } from "../brief/brief.js";
import type { ConfigProblem } from "./parse-config.js";

/**
 * The problems of a `.github/bosun.yml` in words, one line each, as `bosun config check` prints
 * them (the dashboard lists the same problems as markdown): `field: message`, the field said once.
 */
export function formatConfigProblems(problems: readonly ConfigProblem[]): string[] {
  return problems.map(problemText);
}
