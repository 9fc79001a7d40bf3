import type { Octokit } from "@octokit/rest";
import { briefHash } from "../../../core/brief/parse-brief.js";
import { parseIssueBody } from "../../../core/brief/parse-issue-body.js";
import type { Brief } from "../../../core/brief/brief.js";
import type { ClaimRecord } from "../../../core/claims/claim-record.js";
import type { TickAsk } from "../../../core/scheduler/tick-ask.js";
import type { ClaimToken } from "../../../core/claims/claim-token.js";
import type { BosunConfig } from "../../../core/config/bosun-config.js";
import { landingFor } from "../../../core/engine/decide-step.js";
import type { Evidence, JournalEvent } from "../../../core/journal/journal-event.js";
import { journalEmitter } from "../../../core/journal/journal-emitter.js";
import { landEvent } from "../../../core/journal/land-event.js";
import type { RunCost } from "../../../core/journal/run-cost.js";
import { roleOf, whyNotApprover } from "../../../core/scheduler/approval-rule.js";
import { landHeld } from "../../../core/scheduler/land-held.js";
import { mirrorLabels } from "../../../core/scheduler/mirror-labels.js";
import { parseLandCommand } from "../../../core/scheduler/parse-land-command.js";
import { markStatus, renderStatusComment, type StatusExtras } from "../../../core/scheduler/status-comment.js";
import { stepOptionsOf } from "../../../core/scheduler/step-options-of.js";
import type { TickView } from "../../../core/scheduler/tick-plan.js";
import type { Stop } from "../../../core/stop/stop.js";
import { octokitClaimRefs } from "../claim-refs-api.js";
import { GitHubClaimStore } from "../github-claim-store.js";
import { octokitTickGitHub } from "./octokit-tick-github.js";
import { journalGate, newTickMemory, runTick, type TickDeps, type TickReport } from "./run-tick.js";
import type { GateCheckRun } from "./gate-of-check-run.js";
import { HeardGates, placeHeardGate } from "./place-heard-gate.js";
import { HeardSinceTick } from "./heard-since-tick.js";
import { normalizeLogin } from "../../../core/separation/identity.js";
import type { RepoTickerOptions, TickCause } from "./repo-ticker-options.js";
import type { TickGitHub } from "./tick-github.js";

export type { RepoTickerOptions, TickCause } from "./repo-ticker-options.js";

/** A held item as its worker checks it before acting: the record at its epoch, and the approved brief. */
export type HeldItem = { readonly ok: true; readonly record: ClaimRecord; readonly token: ClaimToken; readonly brief: Brief; readonly title: string } | { readonly ok: false; readonly problem: string };

const RECENT_EVENTS = 5000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One repository's scheduler as a process keeps it between ticks — the App's replicas and each
 * Action run alike: its claim store (which believes only records GitHub signed for the App), its
 * reads' caches, and what it remembers of records and verdicts. Nothing in it is needed for
 * correctness: a fresh one rebuilds everything from GitHub. Ticks of one ticker run one at a time.
 */
export class RepoTicker {
  private readonly stores = new Map<string, GitHubClaimStore>();
  readonly github: TickGitHub;
  private readonly refs;
  private readonly memory = newTickMemory();
  /** What webhooks said since the last tick. */
  private readonly heard = new HeardSinceTick();
  /** The App's gate runs heard from their webhooks, and those not yet placed on an item's review. */
  private readonly gates = new HeardGates((run) => this.github.heardGate(run), (run) => this.placeGate(run));
  /** The configuration the latest tick ran under (undefined before the first): what a webhook is looked at under between ticks. */
  lastConfig: BosunConfig | undefined;
  private running: Promise<unknown> = Promise.resolve();
  /** The journal events this ticker wrote, newest last (bounded), for the dashboard's metrics. */
  readonly recentEvents: JournalEvent[] = [];

  constructor(
    octokit: Octokit,
    private readonly options: RepoTickerOptions,
  ) {
    this.refs = octokitClaimRefs(octokit, options.owner, options.repo);
    this.github = options.github ?? octokitTickGitHub(octokit, { owner: options.owner, repo: options.repo, botLogin: options.botLogin, defaultBranch: options.defaultBranch, now: () => options.clock.now(), ...(options.gateHeardWaitMs === undefined ? {} : { gateHeardWaitMs: options.gateHeardWaitMs }), ...(options.copilot === undefined ? {} : { copilot: options.copilot }) });
  }

  /** The claim store for the configuration's ref prefix (it caches claim commits). */
  store(config: BosunConfig): GitHubClaimStore {
    const prefix = config.claims.ref_prefix;
    let store = this.stores.get(prefix);
    if (store === undefined) {
      store = new GitHubClaimStore({ refs: this.refs, prefix, signer: this.options.botLogin });
      this.stores.set(prefix, store);
    }
    return store;
  }

  private deps(config: BosunConfig, recheck = false): TickDeps {
    return {
      ...(recheck ? { recheck } : {}),
      github: this.github,
      store: this.store(config),
      config,
      clock: this.options.clock,
      holder: this.options.holder,
      botLogin: this.options.botLogin,
      ...(this.options.attempts === undefined ? {} : { attempts: this.options.attempts }),
      journal: {
        append: (event) => {
          this.options.journal.append(event);
          this.recentEvents.push(event);
          if (this.recentEvents.length > RECENT_EVENTS) this.recentEvents.splice(0, this.recentEvents.length - RECENT_EVENTS);
        },
      },
    };
  }

  /** A webhook said this issue's approval may have changed (`HeardSinceTick.hint`): its events are read at the next tick. */
  hint(n: number, ask?: TickAsk): void {
    this.heard.hint(n, ask);
  }

  /** What a webhook asks of the next heard tick, when that is all it asks (`HeardSinceTick.ask`; empty: a whole tick). */
  ask(asks: readonly TickAsk[]): void {
    this.heard.ask(asks);
  }

  /** Item n's record as this process last read it, under the configuration of its last tick (no request; undefined: not known). */
  lastSeen(n: number): ClaimRecord | undefined {
    const config = this.lastConfig;
    return config === undefined ? undefined : this.store(config).lastSeen(`${config.claims.ref_prefix}${n}`);
  }

  /** The App's own gate run, from its webhook (`HeardGates.heard`): kept, journalled where it can be placed. */
  heardGate(run: GateCheckRun): "journalled" | "unplaced" | "ignored" {
    return this.gates.heard(run);
  }

  /** Journals a heard verdict if this process knows the item in review on that head (see `heardGate`). */
  private placeGate(run: GateCheckRun): "journalled" | "unplaced" | "ignored" {
    const config = this.lastConfig;
    const placed = placeHeardGate(run, { owner: this.options.owner, repo: this.options.repo, bot: normalizeLogin(this.options.botLogin), knownHead: (pull) => this.github.knownHead(pull), recordOf: (n) => this.lastSeen(n) });
    if (typeof placed === "string") return placed;
    if (config !== undefined) journalGate(this.deps(config), this.memory, placed.n, placed.record, placed.gate);
    return "journalled";
  }

  /** A webhook said pull requests or branches changed: the next tick lists them again. */
  invalidate(what: "pulls" | "branches"): void {
    this.github.invalidate(what);
  }

  /** One tick (gather → plan → apply); `beforeApply` gets the dashboard's view before anything is written. */
  tick(config: BosunConfig, beforeApply?: (view: TickView) => Promise<void>, cause: TickCause = {}): Promise<TickReport> {
    this.lastConfig = config;
    const next = this.running.catch(() => undefined).then(async () => {
      const heard = cause.heard === true;
      const jitter = heard ? (this.options.heardJitterMs ?? 0) * (this.options.random ?? Math.random)() : 0;
      if (jitter > 0) await (this.options.sleep ?? sleep)(jitter);
      // Hints and asks taken after the wait: what webhooks said meanwhile is read by this tick.
      const { hinted, asks, putBack } = this.heard.take(heard);
      // Only verdicts heard before this tick reads the records are placed after it: one heard while
      // it runs may be on a review those records predate, and waits for the tick it asked for.
      const toPlace = this.gates.take();
      cause.onGather?.();
      try {
        const report = await runTick(this.deps(config, heard), this.memory, hinted, beforeApply, asks);
        // The records are read now: verdicts heard before them are placed, or were not the item's review.
        this.gates.placeAll(toPlace);
        // A busy tick changed nothing: what the webhooks said is still to be read, at the next one.
        if (report.busy) putBack();
        return report;
      } catch (err) {
        putBack();
        this.gates.keep(toPlace);
        throw err;
      }
    });
    this.running = next;
    return next;
  }

  /**
   * What a dispatched worker checks before it acts (the `work` mode's check and land jobs): the
   * item is held — by a record GitHub signed for the App — at exactly this epoch, for exactly this
   * brief; and the brief is the approved one, from Bosun's snapshot or the issue's body, whichever
   * hashes to it.
   */
  async heldItem(config: BosunConfig, n: number, epoch: number, hash: string): Promise<HeldItem> {
    const store = this.store(config);
    const ref = `${config.claims.ref_prefix}${n}`;
    const { record, forged } = await store.current(ref);
    if (forged !== undefined && (record === undefined || record.state !== "held")) return { ok: false, problem: `the claim ref of #${n} points at a commit Bosun did not write (${forged.signedBy === undefined ? "unsigned" : `signed for ${forged.signedBy}`}): nothing here was granted by Bosun` };
    if (record === undefined) return { ok: false, problem: `#${n} has no claim record written by Bosun: nothing was granted` };
    if (record.state !== "held" || record.epoch !== epoch) return { ok: false, problem: `stale epoch: this run has epoch ${epoch}, the item is ${record.state === "held" ? `held at epoch ${record.epoch}` : `${record.state} (epoch ${record.epoch})`}` };
    if (record.briefHash !== hash) return { ok: false, problem: `the approved brief is ${record.briefHash ?? "unknown"}, this run was dispatched with ${hash}` };
    store.bind(record.key, ref);
    const token = await store.adopt(record.key);
    if (token === undefined || token.epoch !== epoch) return { ok: false, problem: `stale epoch: #${n} moved on while it was read` };
    const issue = await this.github.issue(n);
    if (issue === undefined) return { ok: false, problem: `#${n} is gone` };
    const parsed = parseIssueBody(issue.body, { name: `issue #${n}`, defaultId: String(n) });
    if (parsed.ok && briefHash(parsed.brief) === hash) return { ok: true, record, token, brief: parsed.brief, title: issue.title };
    return { ok: false, problem: `the issue's brief changed after it was approved (it no longer hashes to ${hash.slice(0, 19)}…): approve it again` };
  }

  /**
   * Lands a worker's own structured result on its claim (a `work` run's land job), fenced by its
   * epoch, by the one landing rule; then mirrors the record in the status comment and labels.
   * Answers the record written, or undefined when the claim moved on (a stale epoch).
   */
  async landRun(config: BosunConfig, n: number, token: ClaimToken, stop: Stop, extra: { readonly evidence?: Evidence; readonly cost?: RunCost; readonly pull?: number; readonly run?: number }): Promise<ClaimRecord | undefined> {
    const now = this.options.clock.now();
    const landing = landingFor(stop, token.epoch, now, stepOptionsOf(config), extra.evidence);
    let next: ClaimRecord | undefined;
    const store = this.store(config);
    store.bind(token.key, `${config.claims.ref_prefix}${n}`);
    const landed = await store.land(token, (r) => (next = landHeld(r, landing, { holder: this.options.holder, now, ...(extra.pull === undefined ? {} : { pull: extra.pull }), ...(extra.run === undefined ? {} : { run: extra.run }), ...(extra.cost === undefined ? {} : { cost: extra.cost }) })), now);
    const emit = journalEmitter(this.deps(config).journal, this.options.clock);
    if (!landed.ok || next === undefined) {
      emit({ ...landEvent(String(n), token.epoch, { stop, ...(extra.evidence === undefined ? {} : { evidence: extra.evidence }) }, landing.disposition), fenced: landed.ok ? "nothing written" : `${landed.reason}: ${landed.detail}` });
      return undefined;
    }
    emit(landEvent(String(n), token.epoch, { stop, ...(extra.evidence === undefined ? {} : { evidence: extra.evidence }), ...(extra.cost === undefined ? {} : { cost: extra.cost }) }, landing.disposition));
    emit({ event: "RELEASE", item: String(n), epoch: token.epoch });
    await this.mirror(config, n, next, extra.pull === undefined ? {} : { pull: { number: extra.pull, state: "open" } });
    return next;
  }

  /**
   * `/bosun land <ok|retry|refuse|human> <reason>` on its own first line of a comment: lands the
   * item's live claim by hand — only for someone the approval rule lets approve it (not an agent,
   * not the issue's author, the configured role). A person's `ok` vouches for the outcome even
   * without a pull request. Returns what happened, for the log.
   */
  async landByCommand(config: BosunConfig, n: number, body: string, author: string): Promise<string> {
    const command = parseLandCommand(body);
    if (command === undefined) return "not a land command";
    const issue = await this.github.issue(n);
    if (issue === undefined) return `ignored: #${n} is gone`;
    const why = whyNotApprover(author, roleOf(await this.github.role(author), undefined), issue.author, config);
    if (why !== undefined) return `ignored: ${why}`;
    const store = this.store(config);
    const { record } = await store.current(`${config.claims.ref_prefix}${n}`);
    if (record?.state !== "held") return `ignored: nothing is in flight on #${n}`;
    store.bind(record.key, `${config.claims.ref_prefix}${n}`);
    const now = this.options.clock.now();
    const stop: Stop = command.stop.kind === "failed" ? { ...command.stop, reason: `${command.stop.reason} (by ${author})` } : command.stop;
    const landing = landingFor(stop, record.epoch, now, stepOptionsOf(config));
    const pull = ((await this.github.linkedPulls()).get(n) ?? []).find((p) => p.state === "open" || p.state === "merged");
    const token = await store.adopt(record.key);
    if (token === undefined) return `ignored: nothing is in flight on #${n}`;
    let next: ClaimRecord | undefined;
    const landed = await store.land(token, (r) => (next = landHeld(r, landing, { holder: `${this.options.holder} for ${author}`, now, vouched: true, ...(pull === undefined ? {} : { pull: pull.number }) })), now);
    if (!landed.ok || next === undefined) return "refused: the claim moved (stale epoch)";
    journalEmitter(this.deps(config).journal, this.options.clock)(landEvent(String(n), record.epoch, { stop }, landing.disposition));
    await this.mirror(config, n, next, {});
    return `landed #${n}: ${next.state === "review" ? "review" : landing.disposition}`;
  }

  /**
   * A person's retry from the dashboard: an item that went to a human (`retry`), or one that ended
   * (`requeue`), goes back to the queue under its approval (the same approved brief), if the
   * approval rule lets that person approve it.
   */
  async retryByPerson(config: BosunConfig, n: number, person: string, which: "retry" | "requeue" = "retry"): Promise<string> {
    const issue = await this.github.issue(n);
    if (issue === undefined) return `#${n} is gone`;
    const why = whyNotApprover(person, roleOf(await this.github.role(person), undefined), issue.author, config);
    if (why !== undefined) return why;
    const now = this.options.clock.now();
    const store = this.store(config);
    const key = (await store.current(`${config.claims.ref_prefix}${n}`)).record?.key;
    if (key === undefined) return `#${n} has no record to retry`;
    store.bind(key, `${config.claims.ref_prefix}${n}`);
    const written = await store.transition(key, (r) => (r?.state === "settled" && (which === "requeue" || r.outcome?.ok !== true) ? markStatus(r, { ...r, holder: `${this.options.holder} for ${person}`, state: "released", notBefore: now, at: now }) : `#${n} is not waiting for a human`), now);
    if (!written.ok) return written.detail;
    await this.mirror(config, n, written.record, {});
    return "requeued";
  }

  /** A verified deployment carried a merged item: done (its record, its labels, its issue closed). */
  async landVerified(config: BosunConfig, n: number, merge: string, summary: string): Promise<"done" | string> {
    const now = this.options.clock.now();
    const store = this.store(config);
    const found = await store.current(`${config.claims.ref_prefix}${n}`);
    if (found.record === undefined) return `#${n} has no record of Bosun's`;
    store.bind(found.record.key, `${config.claims.ref_prefix}${n}`);
    const written = await store.transition(found.record.key, (r) => (r !== undefined && (r.state === "merged" || r.state === "review" || (r.state === "settled" && r.outcome?.ok !== true)) ? markStatus(r, { ...r, holder: this.options.holder, state: "settled", merge, outcome: { ok: true, disposition: "ok", summary }, at: now }) : `#${n} is ${r?.state ?? "unrecorded"}, not merged`), now);
    if (!written.ok) return written.detail;
    await this.mirror(config, n, written.record, {});
    const issue = await this.github.issue(n);
    if (issue?.open === true) await this.github.closeIssue(n);
    return "done";
  }

  /**
   * Puts the status comment and the labels in line with a record this ticker just wrote: the
   * comment only where the item has one or the record calls for one (then this writer, whose write
   * won, posts it if it is not there); an item on the happy path has none and costs no read.
   */
  private async mirror(config: BosunConfig, n: number, record: ClaimRecord, extras: StatusExtras): Promise<void> {
    if (record.statusComment !== false) {
      const body = renderStatusComment(record, extras);
      let comments = await this.github.botComments(n, false);
      if (comments.status === undefined && record.statusComment === true) comments = await this.github.botComments(n, true);
      if (comments.status !== undefined) {
        if (comments.status.body.trim() !== body.trim()) await this.github.updateComment(comments.status.id, body);
      } else if (record.statusComment === true) await this.github.comment(n, body);
    }
    const issue = await this.github.issue(n);
    if (issue === undefined) return;
    const labels = mirrorLabels(issue.labels, record, config.labels);
    if (labels !== undefined) await this.github.setLabels(n, labels);
  }
}
