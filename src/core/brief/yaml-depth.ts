/** Deepest nesting a brief or a configuration needs is about 4; anything far past it is an attack. */
export const MAX_YAML_DEPTH = 32;

/**
 * Says why a YAML text is nested too deeply to hand to the parser, or undefined when it is fine.
 * The `yaml` library recurses per level: thousands of levels (`[[[[…`, `- - - - …`, `? ? ? …`,
 * ever-deeper indentation) overflow the stack, and once that happened V8 aborted the whole process
 * compiling a regular expression afterwards. A linear pre-scan refuses such text first. It bounds
 * every way YAML nests: indentation, the block indicators `- `, `? ` and `: ` opening a line (they
 * nest without indentation: `- ? - ? x`), and flow brackets. The count is conservative: brackets
 * inside quoted strings count too, which only matters past 32 of them. Aliases nest too, but only
 * after parsing: `yamlStructureProblem` bounds them on the parsed document.
 */
export function yamlNestingProblem(text: string, max = MAX_YAML_DEPTH): string | undefined {
  let flow = 0;
  let lineNo = 1;
  let atLineStart = true;
  let indent = 0;
  let indicators = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") {
      lineNo++;
      atLineStart = true;
      indent = 0;
      indicators = 0;
      continue;
    }
    if (atLineStart) {
      if (c === " " || c === "\t") {
        indent++;
        if (indent > max * 4) return `line ${lineNo}: indented more than ${max * 4} columns`;
        continue;
      }
      const next = text[i + 1];
      if ((c === "-" || c === "?" || c === ":") && (next === " " || next === "\t" || next === "\n" || next === undefined)) {
        indicators++;
        if (indicators > max) return `line ${lineNo}: more than ${max} nested "- ", "? " or ": " block indicators`;
        continue;
      }
      atLineStart = false;
    }
    if (c === "#" && (i === 0 || text[i - 1] === " " || text[i - 1] === "\t")) {
      // A comment runs to the end of the line; its brackets do not nest anything.
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
      continue;
    }
    if (c === "[" || c === "{") {
      flow++;
      if (flow > max) return `line ${lineNo}: more than ${max} nested [ or { brackets`;
    } else if ((c === "]" || c === "}") && flow > 0) flow--;
  }
  return undefined;
}
