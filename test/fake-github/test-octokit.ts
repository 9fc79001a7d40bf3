/** A real `@octokit/rest` client for tests: quiet, no retries, pointed at the fake (or a sandbox). */
import { Octokit } from "@octokit/rest";

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export function createTestOctokit(baseUrl: string, token: string | undefined): Octokit {
  return new Octokit({ baseUrl, log: silent, ...(token === undefined ? {} : { auth: token }) });
}
