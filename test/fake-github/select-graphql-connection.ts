/**
 * A GraphQL connection (`totalCount`, `pageInfo`, `nodes`, `edges`) over a list, paginated with
 * `first`/`after` or `last`/`before` as GitHub paginates: at most 100 records a page, `first` or
 * `last` required once nodes or edges are asked for, not both. Cursors name the sort key of an item,
 * so a page after an item that has since gone away still starts in the right place.
 */
import { GraphqlError, withGraphqlPath } from "./graphql-error.js";
import type { GraphqlField } from "./parse-graphql-operation.js";
import type { GraphqlArgument } from "./read-graphql-arguments.js";
import { selectGraphqlFields } from "./select-graphql-fields.js";

/** The arguments every connection takes; a connection field adds its own filters to them. */
export const CONNECTION_ARGUMENTS = ["first", "last", "after", "before"] as const;

/** GitHub's page limit for `first` and `last`. */
export const MAX_PAGE_SIZE = 100;

type SortKey = readonly (string | number)[];

export interface GraphqlConnection<T> {
  /** The node type, e.g. `Ref` (the connection is `RefConnection`, its edges `RefEdge`). */
  nodeType: string;
  items: readonly T[];
  /** The order of the list: ascending by this key, compared element by element (or descending). */
  sortKey: (item: T) => SortKey;
  descending?: boolean;
  /**
   * One node shaped by its selection. Called with `undefined` when the page is empty, only to check
   * the selection: a misspelt field must fail on an empty page too.
   */
  node: (selection: GraphqlField, item: T | undefined) => unknown;
}

export function selectGraphqlConnection<T>(field: GraphqlField, arg: (name: string) => GraphqlArgument, connection: GraphqlConnection<T>): Record<string, unknown> {
  const name = field.name;
  const fail = (message: string, type?: string): GraphqlError => new GraphqlError(message, { ...(type === undefined ? {} : { type }), path: [], locations: [field.location] });
  const first = pageSize(arg, "first", name, fail);
  const last = pageSize(arg, "last", name, fail);
  const after = cursorOf(arg, "after", fail);
  const before = cursorOf(arg, "before", fail);
  if (first !== undefined && last !== undefined) throw fail(`Passing both \`first\` and \`last\` to paginate the \`${name}\` connection is not supported.`);
  const listed = field.selections.some((s) => s.name === "nodes" || s.name === "edges");
  if (listed && first === undefined && last === undefined) throw fail(`You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`, "MISSING_PAGINATION_BOUNDARIES");

  const sign = connection.descending === true ? -1 : 1;
  const order = (a: SortKey, b: SortKey): number => sign * compareKeys(a, b);
  const sorted = [...connection.items].sort((a, b) => order(connection.sortKey(a), connection.sortKey(b)));
  const keys = sorted.map(connection.sortKey);
  // The window between the cursors, then `first` from its start or `last` from its end.
  const low = after === undefined ? 0 : countWhile(keys, (k) => order(k, after) <= 0);
  const high = before === undefined ? keys.length : Math.max(low, countWhile(keys, (k) => order(k, before) < 0));
  const end = first === undefined ? high : Math.min(high, low + first);
  const start = last === undefined ? low : Math.max(low, end - last);
  const page = sorted.slice(start, end);
  const cursors = keys.slice(start, end).map(encodeCursor);
  // graphql-ruby's rule, which GitHub follows: a cursor on the far side says there is a page there.
  const pageInfo = {
    hasNextPage: (first !== undefined && end < high) || (before !== undefined && high < keys.length),
    hasPreviousPage: (last !== undefined && start > low) || (after !== undefined && low > 0),
    startCursor: cursors[0] ?? null,
    endCursor: cursors.at(-1) ?? null,
  };
  const nodes = (selection: GraphqlField): unknown[] => {
    if (page.length === 0) connection.node(selection, undefined);
    return page.map((item, i) => withGraphqlPath(i, () => connection.node(selection, item)));
  };
  const edges = (selection: GraphqlField): unknown[] => {
    const edge = (s: GraphqlField, i: number | undefined): Record<string, unknown> =>
      selectGraphqlFields(s, `${connection.nodeType}Edge`, { cursor: i === undefined ? null : cursors[i] }, { node: (n) => connection.node(n, i === undefined ? undefined : page[i]) });
    if (page.length === 0) edge(selection, undefined);
    return page.map((_item, i) => withGraphqlPath(i, () => edge(selection, i)));
  };
  return selectGraphqlFields(field, `${connection.nodeType}Connection`, { totalCount: sorted.length }, { pageInfo: (s) => selectGraphqlFields(s, "PageInfo", pageInfo), nodes, edges });
}

function pageSize(arg: (name: string) => GraphqlArgument, which: "first" | "last", connection: string, fail: (message: string, type?: string) => GraphqlError): number | undefined {
  const given = arg(which);
  const { value } = given;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || Math.abs(value) > 2 ** 31 - 1) throw given.invalid([], `Could not coerce value ${JSON.stringify(value)} to Int`);
  if (value < 0) throw fail(`\`${which}\` on the \`${connection}\` connection cannot be less than zero.`);
  if (value > MAX_PAGE_SIZE) throw fail(`Requesting ${value} records on the \`${connection}\` connection exceeds the \`${which}\` limit of ${MAX_PAGE_SIZE} records.`, "EXCESSIVE_PAGINATION");
  return value;
}

const CURSOR_PREFIX = "cursor:v1:";

function encodeCursor(key: SortKey): string {
  return Buffer.from(`${CURSOR_PREFIX}${JSON.stringify(key)}`).toString("base64");
}

function cursorOf(arg: (name: string) => GraphqlArgument, which: "after" | "before", fail: (message: string, type?: string) => GraphqlError): SortKey | undefined {
  const given = arg(which);
  const { value } = given;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw given.invalid([], `Could not coerce value ${JSON.stringify(value)} to String`);
  const text = Buffer.from(value, "base64").toString();
  let key: unknown;
  try {
    key = text.startsWith(CURSOR_PREFIX) ? JSON.parse(text.slice(CURSOR_PREFIX.length)) : undefined;
  } catch {
    key = undefined;
  }
  if (!Array.isArray(key) || key.length === 0 || !key.every((k) => typeof k === "string" || typeof k === "number")) {
    throw fail(`\`${value}\` does not appear to be a valid cursor.`, "INVALID_CURSOR_ARGUMENTS");
  }
  return key as SortKey;
}

function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    // Names compare by code unit, as git sorts refs (`refs/x/100` before `refs/x/12`).
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

/** How many leading keys satisfy `test` (keys are sorted, so that is where the others begin). */
function countWhile(keys: readonly SortKey[], test: (key: SortKey) => boolean): number {
  const index = keys.findIndex((key) => !test(key));
  return index < 0 ? keys.length : index;
}
