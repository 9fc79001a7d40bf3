/**
 * The app's timing defaults, in one place so that the benchmarks measure what the server does.
 * Each cache is dropped at once by the webhook that says it changed; the age only bounds a lost one.
 */
export const APP_DEFAULTS = {
  /** How long a read of `.github/bosun.yml` is trusted (a push to the default branch drops it). */
  configMaxAgeMs: 600_000,
  /** Least time between two dashboard writes that change nothing a maintainer acts on. */
  dashboardIntervalMs: 300_000,
  /** How long the dashboard's Setup section trusts its reads before conditional re-reads (a push to the default branch drops it). */
  setupMaxAgeMs: 600_000,
  /**
   * How long the timed sweep reuses its listing of installations and their repositories: the
   * installation and installation_repositories webhooks drop it at once, so this only
   * bounds one lost or heard by another replica.
   */
  installationsMaxAgeMs: 600_000,
  /**
   * The longest random wait before a tick a webhook set off: one event's webhooks reach several
   * replicas at once, and without it they all gather the same state and write the same batch, all
   * but one for nothing (docs/scheduling.md, "Replicas at the same moment"). Timed ticks never wait.
   * 3 s, not 1.5: at 100 ms a request, 1.5 s still left 5 or 6 batches of ~30 lost, 3 s 2.
   */
  heardJitterMs: 3_000,
  /**
   * How long the App waits for the gate's `check_run` webhook on a head in review before reading
   * its check runs: the replica that hears it takes the verdict from the signed payload, and the
   * others mostly never need it (the hearer writes the item's end). A lost webhook costs this much delay.
   */
  gateHeardWaitMs: 30_000,
} as const;
