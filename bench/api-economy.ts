/**
 * `npm run bench -- api-economy`: GitHub requests per item over its whole life on the fake GitHub
 * (queued → claimed → dispatched → landed → released) with one replica, and the cost of an idle
 * tick on an unchanged repository (issue 5; targets in DESIGN.md, "Benchmarks").
 *
 * Ticks come as webhooks would bring them: one when the items are queued, then one per finished
 * workflow run (the bot's own label and ref events are ignored, as an app filtering its own sender
 * would). Runs finish one at a time, ECONOMY_GAP_S (default 60) seconds apart, so the costs that
 * depend on time (cache ages, lease renewals, the dashboard's interval) show up as in production.
 * Each tick is what the server does for a repository: read the configuration (cached, as the app
 * caches it), the reconcile tick of the app's RepoScheduler, then the dashboard refresh.
 * `requests_per_item` is an item's life from queued to released (issue 5's stages); the intake
 * before it (a writer's `bosun:ready` on an issue whose body holds the brief, taken in by the same
 * intake the app runs) has its own budget (`npm run bench -- intake`) and is reported beside it,
 * with the sum in `requests_per_item_with_intake`. `idle_sweep_listing_requests_non_304` is the timed
 * sweep's own listings on the idle fleet (installations, their repositories, approvals not yet
 * taken in), all conditional: target 0.
 * Env: ECONOMY_ITEMS (100), ECONOMY_POOL (4), ECONOMY_GAP_S (60), ECONOMY_REPLICAS (1: webhooks
 * reach the replicas in turn, each with its own caches), ECONOMY_COLD (0; 1: every tick a fresh
 * process with empty caches, as each run of the Action's `schedule` mode). Measures; never fails a build.
 */
import type { RequestLogEntry } from "../test/fake-github/accounting.js";
import type { AppOctokit } from "../src/app/app-octokit.js";
import { createLabelBootstrap } from "../src/app/intake/ensure-labels.js";
import { runIntake } from "../src/app/intake/run-intake.js";
import type { TickReport } from "../src/app/scheduler/reconcile-tick.js";
import { RepoScheduler } from "../src/app/scheduler/repo-scheduler.js";
import { APP_DEFAULTS } from "../src/app/app-defaults.js";
import { SnapshotCache } from "../src/app/snapshot-cache.js";
import { createConfigLoader } from "../src/app/config/load-config.js";
import { createDashboardUpsert } from "../src/app/dashboard/upsert-dashboard.js";
import { throttledDashboard } from "../src/app/dashboard/throttled-dashboard.js";
import { schedulerDashboardState } from "../src/app/dashboard/scheduler-dashboard-state.js";
import { REPO, WORKFLOW, schedulerFixture } from "../test/integration/scheduler/scheduler-fixture.js";
import { createTestOctokit } from "../test/fake-github/test-octokit.js";
import { createInstalledRepoLister } from "../src/app/list-installed-repos.js";
import { createApprovalSweeper } from "../src/app/intake/sweep-approvals.js";

const num = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? "");
  return process.env[name] !== undefined && Number.isFinite(value) ? value : fallback;
};
const items = num("ECONOMY_ITEMS", 100);
const poolSize = num("ECONOMY_POOL", 4);
const gapMs = num("ECONOMY_GAP_S", 60) * 1000;
const replicas = Math.max(1, num("ECONOMY_REPLICAS", 1));
const cold = num("ECONOMY_COLD", 0) !== 0;

const configYaml = `pools:\n  default: {size: ${poolSize}, dispatch: {kind: workflow, workflow: ${WORKFLOW}}}\n`;
const f = await schedulerFixture(configYaml);
try {
  f.fake.setFile(REPO, "main", ".github/bosun.yml", configYaml);
  f.fake.setPermission(REPO, "mona", "write");
  const numbers: number[] = [];
  const bodies = new Map<number, string>();
  for (let i = 0; i < items; i++) {
    const body = `\`\`\`yaml\ngoal: Work on item ${i}.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 100\nclaim_key: task:item-${i}\n\`\`\`\n`;
    const n = f.fake.addIssue(REPO, { title: `item ${i}`, body, labels: ["bosun:ready"] }).number;
    numbers.push(n);
    bodies.set(n, body);
  }
  const appOctokit = f.octokit as unknown as AppOctokit;
  const repo = { owner: "acme", repo: "app" };
  const bootstrap = createLabelBootstrap();
  await bootstrap(appOctokit, repo, f.config); // once per repository and process: not an item's cost
  f.fake.accounting.reset();
  const quiet = { info: () => {}, debug: () => {} };
  // One process, as the app runs: the intake's snapshots are known to the scheduler.
  const snapshots = new SnapshotCache();
  for (const n of numbers) {
    await runIntake({ octokit: appOctokit, repo, log: quiet, labels: () => bootstrap(appOctokit, repo, f.config), snapshots }, n, { kind: "labeled", label: "bosun:ready", sender: "mona", senderCanWrite: false, approvedBody: bodies.get(n) ?? "" }, "bosun[bot]", f.config);
  }
  const intakeCounters = f.fake.accounting.counters();
  const intakeLogLength = f.fake.accounting.log.length;
  // The server's work for one repository per tick, with the app's cache ages and dashboard interval.
  const now = (): number => f.clock.now();
  // Each replica is a process of its own (its own caches); webhooks reach them in turn. Only the
  // first shares the intake's snapshots: it is the one that took the items in.
  const servers = Array.from({ length: replicas }, (_, i) => {
    const scheduler = new RepoScheduler(f.octokit, { owner: "acme", repo: "app", botLogin: "bosun[bot]", defaultBranch: "main", holder: `replica-${i}`, clock: f.clock, journal: { append: () => {} }, ...(i === 0 ? { snapshots } : {}) });
    const loader = createConfigLoader({ now, maxAgeMs: APP_DEFAULTS.configMaxAgeMs });
    const dashboard = throttledDashboard(createDashboardUpsert(async () => "bosun[bot]"), { now, minIntervalMs: APP_DEFAULTS.dashboardIntervalMs });
    return async (): Promise<TickReport> => {
      const { config, problems } = await loader.load(appOctokit, repo);
      const report = await scheduler.tick(config);
      await dashboard(appOctokit, repo, schedulerDashboardState({ repo: REPO, now: now(), config, problems, report, recentLands: scheduler.recentLands, shadow: scheduler.shadow, denials: scheduler.denials, events: scheduler.recentEvents }));
      return report;
    };
  });
  let turn = 0;
  // ECONOMY_COLD: every tick is a fresh process, as each run of the Action's `schedule` mode is
  // (configuration read, a RepoScheduler with empty caches, no dashboard).
  const coldTick = async (): Promise<TickReport> => {
    const { config } = await createConfigLoader({ now }).load(appOctokit, repo);
    const scheduler = new RepoScheduler(f.octokit, { owner: "acme", repo: "app", botLogin: "bosun[bot]", defaultBranch: "main", holder: `action-${turn++}`, clock: f.clock, journal: { append: () => {} } });
    return scheduler.tick(config);
  };
  const serverTick = (): Promise<TickReport> => (cold ? coldTick() : (servers[turn++ % servers.length] as () => Promise<TickReport>)());

  // Life: the queued webhook ticks once; then every finished run is a webhook and a tick.
  let ticks = 0;
  const tick = async (): Promise<void> => {
    ticks++;
    await serverTick();
  };
  await tick();
  const finished = new Set<number>();
  for (let guard = 0; finished.size < numbers.length && guard < items * 10; guard++) {
    const running = [...f.fake.repo(REPO).workflowRuns.values()].filter((r) => r.status !== "completed");
    const next = running[0];
    if (next === undefined) break;
    f.clock.advance(gapMs);
    f.fake.completeWorkflowRun(REPO, next.id, "success");
    finished.add(Number(next.inputs["item"]));
    await tick();
  }
  const landed = numbers.filter((n) => f.labelsOf(n).includes("bosun:done")).length;
  // From queued to released: what the scheduler spent after the intake.
  const life = f.fake.accounting.log.slice(intakeLogLength);
  const lifeCounters = { total: life.length, notModified: life.filter((e) => e.status === 304).length, contentCreating: life.filter((e) => e.kind === "create").length };

  // Idle: one tick sees the last landing's own changes; the next one, on the unchanged repository,
  // is the one measured — first as a schedule tick would come (after a gap), then again at once.
  f.clock.advance(gapMs);
  await serverTick();
  const idle = async (advance: number): Promise<RequestLogEntry[]> => {
    f.clock.advance(advance);
    const from = f.fake.accounting.log.length;
    const report = await serverTick();
    if (!report.idle) console.error("warning: the idle tick did not report idle");
    return f.fake.accounting.log.slice(from);
  };
  const idleAfterGap = await idle(gapMs);
  const idleAtOnce = await idle(0);

  // The timed sweep's own listings on an idle fleet: installations, their repositories and the
  // approvals not yet taken in, each conditional. The first sweep primes the ETags; the second is measured.
  f.fake.addInstallation({ id: 77, appId: 4242, appSlug: "bosun", repos: [REPO] });
  f.fake.state.tokens.set("t-economy-app", { kind: "app", appId: 4242, slug: "bosun" });
  const appClient = createTestOctokit(f.fake.url, "t-economy-app");
  const listRepos = createInstalledRepoLister();
  const approvals = createApprovalSweeper();
  const sweepSite = { octokit: appOctokit, repo, log: quiet, labels: () => bootstrap(appOctokit, repo, f.config) };
  const installationClient = async (id: number) => createTestOctokit(f.fake.url, (await appClient.apps.createInstallationAccessToken({ installation_id: id })).data.token);
  const idleSweep = async (): Promise<RequestLogEntry[]> => {
    const from = f.fake.accounting.log.length;
    await listRepos(appClient, installationClient);
    await approvals.sweep(sweepSite, "bosun[bot]", f.config);
    // Token minting is the token's cost, not the listing's (Probot caches tokens for an hour).
    return f.fake.accounting.log.slice(from).filter((e) => e.route !== "POST /app/installations/{installation_id}/access_tokens");
  };
  await idleSweep();
  const idleSweepLog = await idleSweep();

  const perItem = (n: number): number => Number((n / items).toFixed(2));
  const table = (log: readonly RequestLogEntry[], divisor: number): string[] => {
    const by = new Map<string, { n: number; s304: number; create: number }>();
    for (const e of log) {
      const k = `${e.route ?? e.path}`;
      const row = by.get(k) ?? { n: 0, s304: 0, create: 0 };
      row.n++;
      if (e.status === 304) row.s304++;
      if (e.kind === "create") row.create++;
      by.set(k, row);
    }
    return [...by].sort((a, b) => b[1].n - a[1].n).map(([k, r]) => `  ${(r.n / divisor).toFixed(2).padStart(6)}  (304: ${(r.s304 / divisor).toFixed(2)}, content-creating: ${(r.create / divisor).toFixed(2)})  ${k}`);
  };
  console.log(`life of ${items} items, pool ${poolSize}, ${cold ? "a fresh process per tick" : `${replicas} replica(s)`}, ${ticks} ticks, runs finishing ${gapMs / 1000}s apart; landed ${landed}`);
  console.log(`requests per item from queued to released, by endpoint (total ${lifeCounters.total}, 304s ${lifeCounters.notModified}, content-creating ${lifeCounters.contentCreating}):`);
  for (const line of table(life, items)) console.log(line);
  console.log(`idle tick after ${gapMs / 1000}s:`);
  for (const line of table(idleAfterGap, 1)) console.log(line);
  console.log("idle tick at once:");
  for (const line of table(idleAtOnce, 1)) console.log(line);
  console.log("idle timed sweep (installations, repositories, approvals):");
  for (const line of table(idleSweepLog, 1)) console.log(line);
  console.log(`before it, the intake: ${perItem(intakeCounters.total)} requests per item (${perItem(intakeCounters.contentCreating)} content-creating)`);

  const non304 = (log: readonly RequestLogEntry[]): number => log.filter((e) => e.status !== 304).length;
  console.log(
    JSON.stringify({
      items,
      replicas: cold ? "cold (Action schedule runs)" : replicas,
      requests_per_item: perItem(lifeCounters.total),
      requests_per_item_non_304: perItem(lifeCounters.total - lifeCounters.notModified),
      content_creating_per_item: perItem(lifeCounters.contentCreating),
      idle_tick_requests_non_304: non304(idleAfterGap),
      idle_tick_requests_total: idleAfterGap.length,
      idle_tick_at_once_requests_non_304: non304(idleAtOnce),
      idle_tick_at_once_requests_total: idleAtOnce.length,
      idle_sweep_listing_requests_non_304: non304(idleSweepLog),
      idle_sweep_listing_requests_total: idleSweepLog.length,
      requests_per_item_with_intake: perItem(lifeCounters.total + intakeCounters.total),
      content_creating_per_item_with_intake: perItem(lifeCounters.contentCreating + intakeCounters.contentCreating),
      intake_requests_per_item: perItem(intakeCounters.total),
      landed,
      ticks,
    }),
  );
} finally {
  await f.fake.close();
}
