/**
 * An error the GraphQL endpoint answers with HTTP 200, as GitHub does. One with a `path` failed a
 * field (that field is null in `data`); one without failed the whole document (no `data` at all).
 */
import type { Reply } from "./route.js";

export interface GraphqlLocation {
  line: number;
  column: number;
}

export interface GraphqlErrorDetails {
  /** GitHub's error type: `NOT_FOUND`, `FORBIDDEN`, `UNPROCESSABLE`, ... */
  type?: string;
  /** Response keys down to the failed field, e.g. `["updateRefs"]`. */
  path?: string[];
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
    return { status: 200, headers, body: field === undefined ? { errors: [error] } : { data: { [field]: null }, errors: [error] } };
  }
}
