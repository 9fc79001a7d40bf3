/**
 * An error the GraphQL endpoint answers with HTTP 200, as GitHub does. One with a `path` failed a
 * field (its root field is null in `data`); one without failed the whole document (no `data` at all).
 * While fields resolve, a path is relative to the field being resolved (`[]`: that field itself);
 * `withGraphqlPath` puts each enclosing response key (or list index) in front on the way out.
 */
import type { Reply } from "./route.js";

export interface GraphqlLocation {
  line: number;
  column: number;
}

export interface GraphqlErrorDetails {
  /** GitHub's error type: `NOT_FOUND`, `FORBIDDEN`, `UNPROCESSABLE`, ... */
  type?: string;
  /** Response keys (and list indexes) down to the failed field, e.g. `["repository", "issues", "nodes", 0, "comments"]`. */
  path?: (string | number)[];
  locations?: GraphqlLocation[];
  extensions?: Record<string, unknown>;
}

export class GraphqlError extends Error {
  constructor(
    message: string,
    readonly details: GraphqlErrorDetails = {},
  ) {
    super(message);
    this.name = "GraphqlError";
  }

  /** The 200 reply: `{data: {<field>: null}, errors: [...]}` for a field, `{errors: [...]}` for a document. */
  reply(headers: Record<string, string>): Reply {
    const { type, path, locations, extensions } = this.details;
    const error = {
      ...(type === undefined ? {} : { type }),
      ...(path === undefined ? {} : { path }),
      ...(extensions === undefined ? {} : { extensions }),
      ...(locations === undefined ? {} : { locations }),
      message: this.message,
    };
    const field = path?.[0];
    // A nested failure nulls the whole root field: simpler than GitHub, which nulls the nearest nullable field.
    return { status: 200, headers, body: field === undefined ? { errors: [error] } : { data: { [field]: null }, errors: [error] } };
  }
}

/** Runs `resolve` for the field at `key`; a field error from inside gets `key` in front of its path. */
export function withGraphqlPath<T>(key: string | number, resolve: () => T): T {
  try {
    return resolve();
  } catch (error) {
    if (error instanceof GraphqlError && error.details.path !== undefined) error.details.path.unshift(key);
    throw error;
  }
}
