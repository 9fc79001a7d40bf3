/**
 * Hostile YAML, as found by generated inputs: every way YAML nests (flow, block, explicit keys,
 * compact indicators, indentation, anchors and aliases), at sizes that once stalled the parser
 * for seconds, overflowed its stack, or aborted V8 in the next parse.
 */
export const HOSTILE_YAML: Readonly<Record<string, string>> = {
  "400 nested explicit keys": `${"? ".repeat(400)}x\n`,
  "1,000 nested explicit keys": `${"? ".repeat(1000)}x\n`,
  "5,000 nested explicit keys": `${"? ".repeat(5000)}x\n`,
  "200 nested '- ? '": `${"- ? ".repeat(200)}x\n`,
  "explicit keys and values, alternating": `${"? : ".repeat(3000)}x\n`,
  "20,000 flow brackets": `${"[".repeat(20_000)}${"]".repeat(20_000)}\n`,
  "flow explicit keys": `${"{? ".repeat(3000)}x${"}".repeat(3000)}\n`,
  "20,000 compact sequences": `${"- ".repeat(20_000)}x\n`,
  "explicit keys on lines, each indented one more": Array.from({ length: 300 }, (_, i) => `${" ".repeat(i)}? x`).join("\n"),
  "tab indentation": Array.from({ length: 300 }, (_, i) => `${"\t".repeat(i)}a:`).join("\n"),
  "collection keys (slow to stringify)": Array.from({ length: 30 }, (_, i) => `${"  ".repeat(i)}? - ? - k${i}`).join("\n"),
  "a mapping as a key": "? {a: 1}\n: v\ngoal: x\n",
  "billion laughs": [
    "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]",
    ...Array.from({ length: 9 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array.from({ length: 10 }, () => `*a${i}`).join(", ")}]`),
  ].join("\n"),
  "aliases that nest past the bound": [
    `a0: &a0 ${"[".repeat(30)}x${"]".repeat(30)}`,
    `a1: &a1 ${"[".repeat(30)}*a0${"]".repeat(30)}`,
    `a2: &a2 ${"[".repeat(30)}*a1${"]".repeat(30)}`,
    `goal: *a2`,
  ].join("\n"),
  "hundreds of aliases": `a: &a x\nb: [${Array.from({ length: 500 }, () => "*a").join(", ")}]\n`,
};

/** The hostile YAML as issue bodies: fenced ```yaml blocks, the App's intake path. */
export function hostileBodies(): { readonly name: string; readonly body: string }[] {
  return Object.entries(HOSTILE_YAML).map(([name, yaml]) => ({ name, body: `Please do this.\n\n\`\`\`yaml\n${yaml}\n\`\`\`\n` }));
}

/** A valid issue-form body, the kind that must still parse after the hostile ones. */
export const NORMAL_BODY = [
  "### Goal\n\nHonor Retry-After on 429 and 503 in the HTTP client wrapper.",
  "### Allowed paths\n\nsrc/http/**\ntest/http/**",
  "### Acceptance command\n\n```shell\nnpm test -- http\n```",
  "### Size cap\n\n300",
].join("\n\n");
