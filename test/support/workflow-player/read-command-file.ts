/**
 * The runner's command files (`GITHUB_OUTPUT`, `GITHUB_ENV`): `name=value` lines, or the heredoc
 * form `name<<DELIMITER` ... `DELIMITER` for values with newlines, as `@actions/core` writes them.
 * https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#multiline-strings
 */
import { readFileSync } from "node:fs";

/** The name → value pairs of a command file; a heredoc without its end is an error naming the file. */
export function readCommandFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === "") continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc !== null) {
      const [, name = "", delimiter = ""] = heredoc;
      const end = lines.indexOf(delimiter, i + 1);
      if (end < 0) throw new Error(`${path}: '${name}<<${delimiter}' has no closing ${delimiter}`);
      out[name] = lines.slice(i + 1, end).join("\n");
      i = end;
      continue;
    }
    const eq = line.indexOf("=");
    if (eq <= 0) throw new Error(`${path}: line ${i + 1} is neither name=value nor name<<DELIMITER`);
    out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}
