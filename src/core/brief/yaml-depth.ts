/** Deepest nesting a brief or a configuration needs is about 4; anything far past it is an attack. */
export const MAX_YAML_DEPTH = 32;

/**
 * Says why a YAML text is nested too deeply to hand to the parser, or undefined when it is fine.
 * The `yaml` library recurses per level: thousands of levels (`[[[[…`, `- - - - …`, ever-deeper
 * indentation) overflow the stack, and once that happened V8 aborted the whole process compiling a
 * regular expression afterwards. A linear pre-scan refuses such text first. The count is
 * conservative: brackets inside quoted strings count too, which only matters past 32 of them.
 */
export function yamlNestingProblem(text: string, max = MAX_YAML_DEPTH): string | undefined {
  let flow = 0;
  let lineNo = 1;
  let atLineStart = true;
  let indent = 0;
  let dashes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") {
      lineNo++;
      atLineStart = true;
      indent = 0;
      dashes = 0;
      continue;
    }
    if (atLineStart) {
      if (c === " ") {
        indent++;
        if (indent > max * 4) return `line ${lineNo}: indented more than ${max * 4} columns`;
        continue;
      }
      if (c === "-" && (text[i + 1] === " " || text[i + 1] === "\t")) {
        dashes++;
        if (dashes > max) return `line ${lineNo}: more than ${max} nested "- " list markers`;
        i++;
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
