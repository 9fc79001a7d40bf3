/** A GitHub-shaped error response thrown by handlers: `{message, documentation_url, errors?}`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }

  /** The JSON body GitHub would send. */
  body(): Record<string, unknown> {
    return { message: this.message, documentation_url: DOCS_URL, ...this.extra };
  }
}

export const DOCS_URL = "https://docs.github.com/rest";

export const notFound = (): HttpError => new HttpError(404, "Not Found");

/** 422 as GitHub sends it for a missing or invalid field. */
export function validationFailed(message: string, errors: unknown[] = []): HttpError {
  return new HttpError(422, message, errors.length > 0 ? { errors, status: "422" } : { status: "422" });
}
