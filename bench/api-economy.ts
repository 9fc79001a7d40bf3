/**
 * `npm run bench -- api-economy`: the App's GitHub requests per item over an item's whole life
 * (docs/lifecycle.md: approval → snapshot → claim → dispatch → the work run's landing → PR open →
 * the gate's verdict → merge → done), and the cost of an idle tick (issue 24; targets in DESIGN.md,
 * "Benchmarks").
 *
 * Replicas tick on a timer (ECONOMY_TICK_S, default 5 s of the fake's clock), each in turn, as the
 * App's `BOSUN_TICK_EVERY` sweep would, and on webhooks, as the App does: each delivery of the
 * world's moves goes to one replica (round robin, as GitHub sends each delivery once to the App's
 * one URL), which takes what it carries (a pull request mends its listing, the gate's check run is
 * the verdict, which the others wait for rather than read: `gateHeardWaitMs`), and, where the App's
 * own `ticksNow` says that delivery sets off a tick, ticks (heard) after the move; a replica's timed
 * tick is skipped when it read within half a period (schedule-ticks.ts). ECONOMY_WEBHOOK_TICKS=0:
 * timer ticks only, the model before the independent count showed what it left out. Between ticks the world plays what is not the App: the maintainer approves, each run
 * the App dispatched does what the shipped work workflow's land job does (its pull request
 * opened, its landing recorded in the claim record through the same ticker code, the run
 * completed), the gate posts its verdict as the App, and the maintainer merges. Only the requests
 * made during the replicas' ticks are the App's: `requests_per_item` (304s included),
 * `requests_per_item_non_304`, `content_creating_per_item` (the secondary limit's kind). The work
 * workflow's own requests are reported beside them. `idle_tick_*`: one replica's tick on an
 * unchanged repository after the last item is done.
 * Env: ECONOMY_ITEMS (60), ECONOMY_POOL (4), ECONOMY_REPLICAS (1; 3 for the fleet figure),
 * ECONOMY_TICK_S (5), ECONOMY_COLD (0; 1: every tick a fresh process, as each run of the Action's
 * `schedule` mode), ECONOMY_CONCURRENT (0; 1: the replicas tick at the same moment each turn, as when
 * one event's webhooks reach every replica: heard ticks, see below; `lost_batches` counts the claim
 * commits no ref ever took, `busy_ticks` the ticks that lost or dropped their batch), ECONOMY_HEARD
 * (0; 1: every tick is a heard one, as the App's webhook-set-off ticks: it starts after a random
 * wait of up to ECONOMY_JITTER_MS, default the App's 3000, real ms, and checks its batch is still
 * current before writing it; ECONOMY_JITTER_AT=write: the wait after the plan instead, before the
 * write), ECONOMY_LATENCY_MS (0; real ms the fake waits before answering each request, as
 * GitHub's latency: without it a tick takes milliseconds and jittered replicas never overlap),
 * ECONOMY_TRACE (0; 1: every request of every tick on stderr). The breakdown by
 * method and route template (per item) goes to stderr; the figures are the last line on stdout.
 * Measures; never fails a build.
 */
import { MemoryJournal } from "../src/adapters/memory/memory-journal.js";
import { RepoTicker } from "../src/adapters/github/tick/repo-ticker.js";
import { renderGateCheckMarker } from "../src/core/journal/gate-check-marker.js";
import type { RequestLogEntry } from "../test/fake-github/accounting.js";
import { REPO, WORKFLOW, schedulerFixture } from "../test/integration/scheduler/scheduler-fixture.js";
import { createTestOctokit } from "../test/fake-github/test-octokit.js";
import { parseClaimMessage } from "../src/core/claims/claim-record.js";
import { APP_DEFAULTS } from "../src/app/app-defaults.js";
import { runItems } from "../test/support/run-items.js";
import { ticksNow, type Delivery } from "../src/app/scheduler/ticking-delivery.js";
import type { HeardPull } from "../src/adapters/github/tick/tick-github.js";
import { pullJson } from "../test/fake-github/to-json-pull.js";
import { checkRunJson, workflowRunJson } from "../test/fake-github/to-json-ci.js";
import type { CheckRunRecord } from "../test/fake-github/state.js";
import type { GateCheckRun } from "../src/adapters/github/tick/gate-of-check-run.js";
import { issueJson } from "../test/fake-github/to-json-issue.js";
import { asksOfDelivery, type AskingDelivery } from "../src/adapters/github/tick/asks-of-delivery.js";

const num = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? "");
  return process.env[name] !== undefined && Number.isFinite(value) ? value : fallback;
};
const items = num("ECONOMY_ITEMS", 60);
const poolSize = num("ECONOMY_POOL", 4);
const replicas = Math.max(1, num("ECONOMY_REPLICAS", 1));
const tickMs = num("ECONOMY_TICK_S", 5) * 1000;
const cold = num("ECONOMY_COLD", 0) !== 0;
const trace = num("ECONOMY_TRACE", 0) !== 0;
const concurrent = num("ECONOMY_CONCURRENT", 0) !== 0 && replicas > 1;
const heardTicks = concurrent || num("ECONOMY_HEARD", 0) !== 0;
const jitterMs = num("ECONOMY_JITTER_MS", APP_DEFAULTS.heardJitterMs);
const jitterAtWrite = process.env["ECONOMY_JITTER_AT"] === "write";
const latencyMs = num("ECONOMY_LATENCY_MS", 0);
// The App ticks on webhooks too (register-scheduler.ts, `ticksNow`): each delivery that would set
// one off on the replica that hears it does here, after the world's move; 0: timer ticks only.
const webhookTicks = !cold && !concurrent && num("ECONOMY_WEBHOOK_TICKS", 1) !== 0;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// The shipped work workflow takes its items in batches (docs/workflows/bosun-work.yml); ECONOMY_BATCH=0: one run per item.
const batch = num("ECONOMY_BATCH", 1) !== 0;
const configYaml = `pools:\n  default: {size: ${poolSize}, dispatch: {kind: workflow, workflow: ${WORKFLOW}${batch ? ", batch: true" : ""}}}\nlease: 30m\n`;
const f = await schedulerFixture(configYaml);
try {
  f.fake.setFile(REPO, "main", ".github/bosun.yml", configYaml);
  if (latencyMs > 0) f.fake.faults.add({ kind: "latency", ms: latencyMs });
  const journal = new MemoryJournal();
  // The App's replicas try once per tick (a lost batch is looked at again at the next tick); the land job as the Action does.
  const newTicker = (holder: string, attempts?: number, hearsWebhooks = false): RepoTicker => new RepoTicker(createTestOctokit(f.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: "bosun[bot]", defaultBranch: "main", holder, clock: f.clock, journal, heardJitterMs: jitterAtWrite ? 0 : jitterMs, ...(heardTicks ? {} : { random: () => 0 }), ...(hearsWebhooks ? { gateHeardWaitMs: APP_DEFAULTS.gateHeardWaitMs } : {}), ...(attempts === undefined ? {} : { attempts }) });
  const appTicker = (holder: string): RepoTicker => newTicker(holder, cold ? undefined : 1, !cold);
  const fleet = Array.from({ length: replicas }, (_, i) => appTicker(`replica-${i}`));
  // The work workflow's land job: its own process, with the App's token.
  const landJob = newTicker("work-land");
  let turn = 0;
  const appLog: RequestLogEntry[] = [];
  let ticks = 0;
  let busy = 0;
  // The wait after the plan, for ECONOMY_JITTER_AT=write (the dashboard's hook runs between plan and write).
  const beforeWrite = heardTicks && jitterAtWrite ? () => sleep(jitterMs * Math.random()) : undefined;
  let heardCount = 0;
  let skipped = 0;
  const tick = async (): Promise<boolean> => {
    const tickers = concurrent ? fleet : [cold ? newTicker(`action-${turn}`) : (fleet[turn % fleet.length] as RepoTicker)];
    // The App's sweep skips a repository its process read within half a period (schedule-ticks.ts).
    const mine = tickers[0];
    if (webhookTicks && mine !== undefined && f.clock.now() - (lastRead.get(mine) ?? Number.NEGATIVE_INFINITY) < tickMs / 2) {
      turn++;
      skipped++;
      return false;
    }
    for (const t of tickers) lastRead.set(t, f.clock.now());
    const who = concurrent ? "every replica at once" : cold ? "a fresh process" : `replica ${turn % fleet.length}`;
    turn++;
    ticks++;
    const from = f.fake.accounting.log.length;
    const reports = await Promise.all(tickers.map((t) => t.tick(f.config, beforeWrite, { heard: heardTicks })));
    busy += reports.filter((r) => r.busy).length;
    const made = f.fake.accounting.log.slice(from);
    appLog.push(...made);
    if (trace) console.error(`tick ${ticks} (${who}):\n${made.map((e) => `  ${e.status} ${e.method} ${e.path}${e.kind === "create" ? " [content-creating]" : ""}`).join("\n")}`);
    return reports.every((r) => r.view.idle);
  };

  const recordOf = (n: number) => {
    const ref = `refs/bosun/claims/${n}`;
    const sha = f.fake.repo(REPO).refs.get(ref);
    return sha === undefined ? undefined : parseClaimMessage(f.fake.repo(REPO).commits.get(sha)?.message ?? "", ref);
  };
  const workLog: RequestLogEntry[] = [];
  /**
   * The webhooks of what happened: GitHub sends each delivery once, to the App's one URL, so one
   * replica hears each (round robin, as a load balancer in front of the replicas hands them out).
   */
  let delivery = 0;
  const hearer = (): RepoTicker | undefined => fleet[delivery++ % fleet.length];
  /** Replicas a delivery would have set ticking (`ticksNow`), and when each last read GitHub. */
  const woken = new Set<RepoTicker>();
  const lastRead = new Map<RepoTicker, number>();
  /** A pull request as its webhook carries it: the fake's own JSON of it, as GitHub's payload is its REST shape. */
  const pullPayload = (number: number): HeardPull => {
    const repo = f.fake.repo(REPO);
    const pull = repo.pulls.get(number);
    if (pull === undefined) throw new Error(`no pull request #${number}`);
    return pullJson(f.fake.state, repo, pull) as unknown as HeardPull;
  };
  /**
   * `issue`: the issue an `issues` delivery names (the hearer looks up where it last saw its
   * record); `payload`: what of the payload names the delivery's asks (register-scheduler.ts).
   */
  const deliver = (delivery: Delivery, effect: (t: RepoTicker) => void = () => undefined, issue?: number, payload: Omit<AskingDelivery, "name" | "action"> = {}): void => {
    const t = hearer();
    if (t === undefined) return;
    effect(t);
    // As register-scheduler.ts: an issue event hints its issue (with its ask, an approval's), a close asks where the item stood.
    const asks = asksOfDelivery({ name: delivery.name, ...(delivery.action === undefined ? {} : { action: delivery.action }), ...payload, ...(t.lastConfig === undefined ? {} : { readyLabel: t.lastConfig.labels.ready }) });
    if (delivery.name === "issues" && delivery.action !== "closed" && issue !== undefined) t.hint(issue, asks[0]);
    const itemState = issue === undefined ? undefined : t.lastSeen(issue)?.state;
    if (!webhookTicks || !ticksNow({ ...delivery, ...(itemState === undefined ? {} : { itemState }) }, f.config)) return;
    woken.add(t);
    if (delivery.name !== "issues" || asks.length === 0) t.ask(asks);
  };
  /** What happens between ticks that is not the App: runs land, the gate judges, the maintainer merges. */
  const world = async (): Promise<void> => {
    const from = f.fake.accounting.log.length;
    for (const run of [...f.fake.repo(REPO).workflowRuns.values()].filter((r) => r.status !== "completed")) {
      // Each item of the run (a matrix leg of a batch) lands on its own, as its land job does.
      for (const leg of runItems(run)) {
      const n = Number(leg.item);
      const held = await landJob.heldItem(f.config, n, leg.epoch, leg.briefHash);
      if (held.ok) {
        const pull = f.fake.addPull(REPO, { head: `bosun/${n}-work`, base: "main", body: `Closes #${n}`, user: "bosun[bot]", files: [{ filename: "src/a.ts", status: "modified", additions: 1, deletions: 0, patch: "@@ -0,0 +1 @@\n+x" }] });
        await landJob.landRun(f.config, n, held.token, { kind: "done" }, { evidence: { command: "agent", exit: 0, lines: [] }, cost: { wall_clock_s: 60 }, pull: pull.number, run: run.id });
        deliver({ name: "pull_request", action: "opened" }, (t) => t.github.heardPull(pullPayload(pull.number)));
      }
      }
      f.fake.completeWorkflowRun(REPO, run.id, "success");
      deliver({ name: "workflow_run", runEvent: "workflow_dispatch" }, undefined, undefined, { workflow_run: workflowRunJson(f.fake.state, f.fake.repo(REPO), run) as { event?: string; display_title?: string } });
    }
    for (const n of numbers) {
      const r = recordOf(n);
      if (r?.state !== "review" || r.pull === undefined) continue;
      const pull = f.fake.repo(REPO).pulls.get(r.pull);
      if (pull === undefined) continue;
      const repo = f.fake.repo(REPO);
      const judged = [...repo.checkRuns.values()].some((c) => c.headSha === pull.headSha && c.name === "bosun/gate");
      if (!judged) {
        // The gate workflow posts its verdict as the App (its requests are the gate's, not counted here).
        const id = f.fake.state.nextId++;
        const summary = `${renderGateCheckMarker({ v: 1, item: String(n), brief: r.briefHash ?? null, verdict: "pass", sha: pull.headSha })}\npass`;
        const run: CheckRunRecord = { id, name: "bosun/gate", headSha: pull.headSha, status: "completed", conclusion: "success", startedAt: f.clock.now(), completedAt: f.clock.now(), externalId: "", detailsUrl: null, output: { title: "pass", summary, text: null, annotationsCount: 0 }, annotations: [], appId: 42, appSlug: "bosun" };
        repo.checkRuns.set(id, run);
        // Its check_run webhook (GitHub's payload, the open pull requests on its head listed), as the
        // App's handler takes it (register-scheduler.ts): a pass sets off no tick, unless the replica
        // cannot place it on the item's review yet — then a tick that reads the claim records.
        const listener = hearer();
        if (listener !== undefined && listener.heardGate(checkRunJson(f.fake.state, repo, run) as unknown as GateCheckRun) === "unplaced" && webhookTicks) {
          listener.ask([{ kind: "records" }]);
          woken.add(listener);
        }
      } else if (!pull.merged) {
        // The maintainer merges what passed (played on the fake's state as its merge route writes
        // it, `updated_at` moved with the state: the merge is not the App's).
        const now = f.clock.now();
        pull.merged = true;
        pull.mergedAt = now;
        pull.mergeCommitSha = pull.headSha;
        const issue = repo.issues.get(pull.number);
        if (issue !== undefined) Object.assign(issue, { state: "closed", closedAt: now, updatedAt: now });
        deliver({ name: "pull_request", action: "closed" }, (t) => t.github.heardPull(pullPayload(pull.number)), undefined, { pull_request: pullPayload(pull.number) });
        deliver({ name: "issues", action: "closed" }, undefined, n);
        const item = repo.issues.get(n);
        if (item !== undefined) Object.assign(item, { state: "closed", stateReason: "completed", closedAt: now, updatedAt: now });
      }
    }
    workLog.push(...f.fake.accounting.log.slice(from));
    // The ticks those deliveries set off, each on the replica that heard it (a heard tick: it
    // checks its batch before writing; no jitter wait here, where nothing runs at the same time).
    for (const t of fleet.filter((r) => woken.has(r))) {
      const at = f.fake.accounting.log.length;
      const report = await t.tick(f.config, undefined, { heard: true });
      // As register-scheduler.ts: only a tick that read it all and wrote what it planned lets the sweep skip.
      if (!report.busy && report.answered !== true) lastRead.set(t, f.clock.now());
      heardCount++;
      if (report.busy) busy++;
      const made = f.fake.accounting.log.slice(at);
      appLog.push(...made);
      if (trace) console.error(`webhook tick (replica ${fleet.indexOf(t)}):\n${made.map((e) => `  ${e.status} ${e.method} ${e.path}${e.kind === "create" ? " [content-creating]" : ""}`).join("\n")}`);
    }
    woken.clear();
  };

  // Each replica has swept the repository once before the first approval, as the App's replicas
  // do when they start (api-economy-app's warm-up): not counted, as that bench does not count it.
  if (webhookTicks) for (const t of fleet) await t.tick(f.config);
  const numbers: number[] = [];
  for (let i = 0; i < items; i++) numbers.push(await f.queue(`item-${i}`));
  // The maintainer's approvals: an issues.labeled delivery each.
  for (const n of numbers) {
    const issue = f.fake.repo(REPO).issues.get(n);
    if (issue === undefined) throw new Error(`no issue #${n}`);
    // The payload's issue as GitHub renders it (whole-second times).
    deliver({ name: "issues", action: "labeled" }, undefined, n, { label: { name: f.config.labels.ready }, issue: issueJson(f.fake.state, f.fake.repo(REPO), issue) as { number: number; updated_at: string } });
  }
  let idle = false;
  for (let guard = 0; guard < items * 40 && !idle; guard++) {
    idle = (await tick()) && numbers.every((n) => recordOf(n)?.state === "settled");
    await world();
    f.clock.advance(concurrent ? tickMs : tickMs / replicas);
  }
  const done = numbers.filter((n) => recordOf(n)?.state === "settled" && recordOf(n)?.outcome?.ok === true).length;

  // Idle: the repository unchanged since the last tick.
  for (let i = 0; i < replicas; i++) {
    f.clock.advance(tickMs);
    await tick();
  }
  f.clock.advance(tickMs);
  const from = f.fake.accounting.log.length;
  await (fleet[0] as RepoTicker).tick(f.config);
  const idleTick = f.fake.accounting.log.slice(from);

  // Claim commits written (by any writer) that no claim ref ever took: batches refused to a racing writer.
  const repo = f.fake.repo(REPO);
  const taken = new Set<string>();
  const walk = [...repo.refs].filter(([ref]) => ref.startsWith("refs/bosun/")).map(([, sha]) => sha);
  for (let sha = walk.pop(); sha !== undefined; sha = walk.pop()) {
    if (taken.has(sha)) continue;
    taken.add(sha);
    walk.push(...(repo.commits.get(sha)?.parents ?? []));
  }
  const lostBatches = [...repo.commits.values()].filter((c) => c.message.startsWith("bosun claim") && !taken.has(c.sha)).length;
  const perItem = (n: number): number => Number((n / items).toFixed(2));
  const table = (log: readonly RequestLogEntry[], divisor: number): string[] => {
    const by = new Map<string, { n: number; s304: number; create: number }>();
    for (const e of log) {
      // GraphQL is one route: a query reads, a mutation (updateRefs) writes.
      const k = e.route === "POST /graphql" ? `POST /graphql (${e.kind === "create" ? "mutation" : "query"})` : `${e.route ?? `${e.method} ${e.path}`}`;
      const row = by.get(k) ?? { n: 0, s304: 0, create: 0 };
      row.n++;
      if (e.status === 304) row.s304++;
      if (e.kind === "create") row.create++;
      by.set(k, row);
    }
    return [...by].sort((a, b) => b[1].n - a[1].n).map(([k, r]) => `  ${(r.n / divisor).toFixed(2).padStart(6)}  (304: ${(r.s304 / divisor).toFixed(2)}, content-creating: ${(r.create / divisor).toFixed(2)})  ${k}`);
  };
  const non304 = (log: readonly RequestLogEntry[]): number => log.filter((e) => e.status !== 304).length;
  const creating = (log: readonly RequestLogEntry[]): number => log.filter((e) => e.kind === "create").length;
  console.error(`${items} items, pool ${poolSize}, ${cold ? "a fresh process per tick (the Action's schedule mode)" : `${replicas} replica(s)`}, a tick every ${tickMs / 1000}s, ${ticks} ticks; done ${done}`);
  console.error(`the App's requests per item, by method and route (total ${appLog.length}, 304s ${appLog.length - non304(appLog)}, content-creating ${creating(appLog)}):`);
  for (const line of table(appLog, items)) console.error(line);
  console.error(`the work workflow's land job, per item (not the App's): ${perItem(workLog.length)} requests, ${perItem(creating(workLog))} content-creating`);
  console.error("idle tick:");
  for (const line of table(idleTick, 1)) console.error(line);
  console.log(
    JSON.stringify({
      items,
      replicas: cold ? "cold (Action schedule runs)" : replicas,
      ...(concurrent ? { concurrent: true } : {}),
      ...(heardTicks ? { heard: true, jitter_ms: jitterMs, ...(jitterAtWrite ? { jitter_at: "write" } : {}) } : {}),
      batch,
      ...(latencyMs > 0 ? { latency_ms: latencyMs } : {}),
      tick_s: tickMs / 1000,
      requests_per_item: perItem(appLog.length),
      requests_per_item_non_304: perItem(non304(appLog)),
      content_creating_per_item: perItem(creating(appLog)),
      land_job_requests_per_item: perItem(workLog.length),
      idle_tick_requests_total: idleTick.length,
      idle_tick_requests_non_304: non304(idleTick),
      lost_batches: lostBatches,
      busy_ticks: busy,
      done,
      ticks,
      webhook_ticks: webhookTicks ? heardCount : null,
      sweeps_skipped: webhookTicks ? skipped : null,
    }),
  );
} finally {
  await f.fake.close();
}
