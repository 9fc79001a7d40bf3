import { isAlias, isCollection, isMap, isPair, isScalar, parseDocument } from "yaml";
import type { Node } from "yaml";
import { MAX_YAML_DEPTH, yamlNestingProblem } from "./yaml-depth.js";

/** The parser's budget for one brief or configuration (DESIGN.md: no issue body stalls the App). */
export const YAML_BUDGET = {
  /** Nesting, counted on the text and again on the parsed tree, aliases followed. */
  depth: MAX_YAML_DEPTH,
  /** Alias nodes (`*name`) in one document. */
  aliases: 50,
  /** What `toJS` may expand aliases into: the `yaml` package's own "billion laughs" bound. */
  maxAliasCount: 20,
  /** Nodes in one document (a brief has well under a hundred). */
  nodes: 20_000,
} as const;

/** One problem reading YAML, with the line and column when the parser knows them. */
export interface YamlProblem {
  readonly message: string;
}

export type GuardedYaml = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly problems: readonly YamlProblem[] };

/**
 * Parses untrusted YAML under a budget: the text's nesting is bounded before the parser sees it,
 * and the parsed tree is checked (depth through aliases, alias and node counts, keys that are
 * plain values) before `toJS` expands it. A mapping key that is itself a list or mapping is
 * refused: `toJS` would stringify it (slowly: 200 nested `- ? ` took 9 s), and no brief or
 * configuration field is named by a collection.
 */
export function readGuardedYaml(text: string): GuardedYaml {
  const nesting = yamlNestingProblem(text);
  if (nesting !== undefined) return refuse(`nested too deeply: ${nesting}`);
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((e) => ({
        message: `${e.linePos?.[0] ? `line ${e.linePos[0].line}, column ${e.linePos[0].col}: ` : ""}${firstLine(e.message).replace(/ at line \d+, column \d+:?$/, "")}`,
      })),
    };
  }
  const structure = structureProblem(doc.contents as Node | null, (node) => lineOf(text, node));
  if (structure !== undefined) return refuse(structure);
  try {
    return { ok: true, data: doc.toJS({ maxAliasCount: YAML_BUDGET.maxAliasCount }) };
  } catch (err) {
    return refuse(firstLine(err instanceof Error ? err.message : String(err)));
  }
}

/**
 * Walks the tree without recursion, in document order: depth, node and alias counts, plain keys;
 * then the height of the tree with every alias standing for its anchor's subtree, which is the
 * nesting `toJS` will really build.
 */
function structureProblem(root: Node | null, where: (node: Node) => string): string | undefined {
  if (root === null) return undefined;
  const anchors = new Map<string, Node>();
  const targetOf = new Map<Node, Node | undefined>();
  const height = new Map<Node, number>();
  // Post-order on an explicit stack: a node's height is known once its children's are.
  const stack: { node: Node; depth: number; expanded: boolean }[] = [{ node: root, depth: 1, expanded: false }];
  let nodes = 0;
  let aliases = 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { node: Node; depth: number; expanded: boolean };
    const { node, depth } = top;
    if (top.expanded) {
      stack.pop();
      let h = 1;
      if (isAlias(node)) {
        const target = targetOf.get(node);
        // An alias inside its own anchor (a cycle) has no height yet: it would never end.
        h = target === undefined ? Number.POSITIVE_INFINITY : (height.get(target) ?? Number.POSITIVE_INFINITY);
        if (h === Number.POSITIVE_INFINITY) return `${where(node)}the alias *${node.source} refers to a value that contains it`;
      } else if (isCollection(node)) {
        for (const child of childrenOf(node)) h = Math.max(h, 1 + (height.get(child) ?? 0));
      }
      if (h > YAML_BUDGET.depth * 2) return `${where(node)}aliases expand to more than ${YAML_BUDGET.depth * 2} levels of nesting`;
      height.set(node, h);
      continue;
    }
    top.expanded = true;
    if (++nodes > YAML_BUDGET.nodes) return `more than ${YAML_BUDGET.nodes} values`;
    if (depth > YAML_BUDGET.depth) return `${where(node)}nested more than ${YAML_BUDGET.depth} levels deep`;
    const anchor = (node as { anchor?: string }).anchor;
    if (isAlias(node)) {
      if (++aliases > YAML_BUDGET.aliases) return `${where(node)}more than ${YAML_BUDGET.aliases} aliases`;
      targetOf.set(node, anchors.get(node.source));
      continue;
    }
    if (typeof anchor === "string") anchors.set(anchor, node);
    if (!isCollection(node)) continue;
    for (const item of node.items as unknown[]) {
      if (!isPair(item)) continue;
      const key = item.key as Node | null;
      if (key !== null && !isScalar(key)) {
        return `${where(key)}a key must be a plain value, not ${isAlias(key) ? "an alias" : isMap(key) ? "a mapping" : "a list"}`;
      }
      // `toJS` turns this key into the object's prototype: the entry (a pool, say) would vanish without a word.
      if (key !== null && key.value === "__proto__") return `${where(key)}a key named __proto__ cannot be read (JavaScript objects take it as their prototype): use another name`;
    }
    // Pushed in reverse so they are visited in document order: an anchor before its aliases.
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i] as Node, depth: depth + 1, expanded: false });
  }
  return undefined;
}

function childrenOf(node: Node): Node[] {
  if (!isCollection(node)) return [];
  const out: Node[] = [];
  for (const item of node.items as unknown[]) {
    const child = isPair(item) ? (item.value as Node | null) : (item as Node | null);
    if (child !== null && child !== undefined) out.push(child);
  }
  return out;
}

function lineOf(text: string, node: Node): string {
  const offset = node.range?.[0];
  if (offset === undefined) return "";
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === "\n") line++;
  return `line ${line}: `;
}

function refuse(message: string): GuardedYaml {
  return { ok: false, problems: [{ message }] };
}

function firstLine(message: string): string {
  return message.split("\n")[0] ?? message;
}
