import { expect } from "vitest";

/** What `GraphqlResponseError` carries (the class lives in a transitive dependency, so it is read by shape). */
export interface GraphqlFailure {
  name: string;
  data?: unknown;
  errors: Array<{ type?: string; path?: Array<string | number>; locations?: Array<{ line: number; column: number }>; message: string }>;
}

/** The GraphQL error a pending `octokit.graphql()` call rejects with; fails the test if it answers data. */
export async function graphqlFailure(pending: Promise<unknown>): Promise<GraphqlFailure> {
  const error = await pending.then(
    () => {
      throw new Error("expected a GraphQL error, got data");
    },
    (e: unknown) => e,
  );
  expect((error as { name?: unknown }).name).toBe("GraphqlResponseError");
  return error as GraphqlFailure;
}
