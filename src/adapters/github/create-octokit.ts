import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import Bottleneck from "bottleneck/light.js";

/**
 * `@octokit/rest` with GitHub's retry and throttling plugins, as Probot builds the App's clients.
 * Every Octokit Bosun creates outside the App comes from `createOctokit` (docs/cli.md, "Talking to GitHub").
 */
const PluggedOctokit = Octokit.plugin(retry, throttling);

/** How many times a rate-limited request is sent again after waiting what GitHub asked. */
export const RATE_LIMIT_RETRIES = 2;

// Writes one at a time in a process, as GitHub asks of content creation, but without the plugin's
// default gaps (1 s between writes, 3 s between writes that notify, such as comments): Bosun
// budgets its own content-creating requests (about 4 per item, far under 80 a minute), and when
// the secondary limit answers anyway the request waits its Retry-After and goes again. One group
// each for the whole process, like the plugin's own defaults.
const writes = new Bottleneck.Group({ id: "bosun-octokit-write", maxConcurrent: 1, minTime: 0 });
const notifications = new Bottleneck.Group({ id: "bosun-octokit-notifications", maxConcurrent: 1, minTime: 0 });

type Options = NonNullable<ConstructorParameters<typeof Octokit>[0]>;

/**
 * An Octokit that waits out primary and secondary rate limits (up to RATE_LIMIT_RETRIES times,
 * honouring `retry-after`) and retries reads (GET, HEAD) on a 5xx, twice, after 0.25 s and 1 s.
 * Writes are never re-sent after a 5xx: GitHub can fail after applying one (a second comment or
 * ref write would follow), so their callers read back instead.
 */
export function createOctokit(options: Options = {}): Octokit {
  const octokit = new PluggedOctokit({
    ...options,
    retry: { retries: 2, retryAfterBaseValue: 250 },
    throttle: {
      write: writes,
      notifications,
      onRateLimit: (_after: number, _request: unknown, _octokit: unknown, retryCount: number) => retryCount < RATE_LIMIT_RETRIES,
      onSecondaryRateLimit: (_after: number, _request: unknown, _octokit: unknown, retryCount: number) => retryCount < RATE_LIMIT_RETRIES,
    },
  });
  octokit.hook.before("request", (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") request.request = { ...request.request, retries: 0 };
  });
  return octokit;
}
