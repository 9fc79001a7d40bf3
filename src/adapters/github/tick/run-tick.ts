import type { ClaimRecord } from "../../../core/claims/claim-record.js";
import type { BosunConfig } from "../../../core/config/bosun-config.js";
import type { Clock } from "../../../core/engine/clock.js";
import type { Journal } from "../../../core/journal/journal-event.js";
import { journalEmitter } from "../../../core/journal/journal-emitter.js";
import { landEvent } from "../../../core/journal/land-event.js";
import { taskClassOf } from "../../../core/metrics/task-class.js";
import { planTick } from "../../../core/scheduler/plan-tick.js";
import type { TickFacts } from "../../../core/scheduler/tick-facts.js";
import type { GateFact } from "../../../core/engine/step-state.js";
import { asksAnswered, type TickAsk } from "../../../core/scheduler/tick-ask.js";
import type { TickPlan, TickView } from "../../../core/scheduler/tick-plan.js";
import type { GitHubClaimStore } from "../github-claim-store.js";
import { applyTick } from "./apply-tick.js";
import { claimsByItem } from "./claims-by-item.js";
import { gatherTick, newGatherMemory, screenItems, type GatherMemory } from "./gather-tick.js";
import type { TickGitHub } from "./tick-github.js";

export interface TickDeps {
  readonly github: TickGitHub;
  readonly store: GitHubClaimStore;
  readonly config: BosunConfig;
  readonly clock: Clock;
  readonly journal: Journal;
  /** This writer's holder name. */
  readonly holder: string;
  /** The App's bot login: its records, runs, comments and check runs are Bosun's. */
  readonly botLogin: string;
  /** How many times the tick decides again after losing its batch to another writer (default `ATTEMPTS`). */
  readonly attempts?: number;
  /** Look whether another writer moved the batch's claims before writing it (`ApplyInput.recheck`). */
  readonly recheck?: boolean;
}

/** What one writer remembers between ticks; nothing in it is needed for correctness. */
export interface TickMemory {
  readonly gather: GatherMemory;
  /** n → the record last seen, to journal the landings other writers (a run's land job) wrote. */
  readonly seen: Map<number, ClaimRecord>;
  /** Gate verdicts already journalled, by item, sha and verdict. */
  readonly gates: Set<string>;
}

export const newTickMemory = (): TickMemory => ({ gather: newGatherMemory(), seen: new Map(), gates: new Set() });

export interface TickReport {
  /** Other writers kept moving the claims under this tick (every attempt lost its compare-and-swap): it changed nothing. */
  readonly busy: boolean;
  /**
   * The claim records showed every ask of the webhooks that set this tick off already answered
   * (`asksAnswered`): it read nothing else and wrote nothing; its view is empty.
   */
  readonly answered?: boolean;
  readonly view: TickView;
  readonly dispatched: readonly number[];
  /** Mirror writes that failed this tick (the next one repairs them). */
  readonly failures: readonly string[];
}

/**
 * How many times a tick decides again after losing its batch to another writer, by default: an
 * Action run has no later tick to leave the work to. The App, which looks again shortly when a tick
 * was busy, tries once: the writer that won just wrote what both read, and reading it all again at
 * once, beside that writer, costs a whole gather for little.
 */
const ATTEMPTS = 3;
/** How many times a tick screens the items it would grant before it writes what it has. */
const SCREEN_ROUNDS = 3;

/**
 * One tick as three stages (docs/scheduling.md): gather every fact, plan every decision (pure,
 * `planTick`), apply the plan (one batch, then its effects and mirrors). Before the apply, the
 * dashboard's busy/idle line is handed to `beforeApply`, so it is written first and decided from
 * the same facts. A batch lost to another writer means nothing happened: gather and plan again.
 */
export async function runTick(deps: TickDeps, memory: TickMemory, hinted: ReadonlySet<number> = new Set(), beforeApply?: (view: TickView) => Promise<void>, asks: readonly TickAsk[] = []): Promise<TickReport> {
  let lost = "";
  let conflict = true;
  // A tick set off only to answer asks reads the claims first: another replica, or the land job,
  // may have answered them all, and then nothing else needs reading.
  let claims = asks.length > 0 ? await deps.store.listClaims() : undefined;
  if (claims !== undefined && asksAnswered(asks, recordsOf(claims, deps.config.claims.ref_prefix), deps.config, deps.clock.now())) return { busy: false, answered: true, view: EMPTY_VIEW, dispatched: [], failures: [] };
  for (let attempt = 1; attempt <= (deps.attempts ?? ATTEMPTS); attempt++) {
    const now = deps.clock.now();
    const gatherInput = { github: deps.github, store: deps.store, config: deps.config, holder: deps.holder, botLogin: deps.botLogin, now, memory: memory.gather, hinted };
    let facts = await gatherTick({ ...gatherInput, ...(claims === undefined ? {} : { claims }) });
    claims = undefined;
    observe(deps, memory, facts);
    let plan: TickPlan = planTick(facts);
    for (let round = 1; round <= SCREEN_ROUNDS && plan.screen.length > 0; round++) {
      facts = await screenItems(gatherInput, facts, plan.screen);
      plan = planTick(facts);
    }
    await beforeApply?.(plan.view).catch(() => undefined);
    const applied = await applyTick(deps, plan);
    if (applied.lost) {
      lost = applied.detail;
      conflict = applied.conflict;
      if (!conflict) break;
      continue;
    }
    for (const w of plan.writes) memory.seen.set(w.n, w.next);
    return { busy: false, view: plan.view, dispatched: applied.dispatched, failures: applied.failures };
  }
  // A write that failed with nobody in the way (no permission, no updateRefs on this server) must be heard.
  if (!conflict) throw new Error(`the tick could not write its claims: ${lost}`);
  return { busy: true, view: EMPTY_VIEW, dispatched: [], failures: [] };
}

/** The view of a tick that decided nothing (busy, or its asks already answered): not idle, nothing in it. */
const EMPTY_VIEW: TickView = { idle: false, queue: [], inFlight: [], review: [], needsHuman: [], waiting: [], invalid: [], notes: [], landed: [] };

/** Item number → the record Bosun wrote for it, from a listing of the claim refs. */
function recordsOf(claims: ReadonlyArray<{ ref: string; record: ClaimRecord | undefined }>, prefix: string): Map<number, ClaimRecord> {
  return new Map([...claimsByItem(claims, prefix)].flatMap(([n, c]) => (c.record === undefined ? [] : [[n, c.record] as const])));
}

/**
 * Journals what other writers recorded since the last tick: a run's land job landing its own
 * claim (read back from the record, never decided again), and the gate's verdicts on items in review.
 */
function observe(deps: TickDeps, memory: TickMemory, facts: TickFacts): void {
  const emit = journalEmitter(deps.journal, deps.clock);
  for (const item of facts.items) {
    const r = item.record;
    if (r === undefined) continue;
    const before = memory.seen.get(item.n);
    const landing = r.landing;
    if (before?.state === "held" && before.epoch === r.epoch && r.state !== "held" && landing !== undefined && landing.by !== deps.holder) {
      const disposition = landing.disposition === "review" ? "ok" : landing.disposition;
      emit(landEvent(String(item.n), r.epoch, { stop: landing.stop, ...(landing.evidence === undefined ? {} : { evidence: landing.evidence }), ...(landing.cost === undefined ? {} : { cost: landing.cost }) }, disposition));
    }
    memory.seen.set(item.n, r);
    if (item.gate !== undefined) journalGate(deps, memory, item.n, r, item.gate);
  }
}

/**
 * Journals the gate's verdict on an item in review, once per item, commit and verdict: read by a
 * tick, or heard from the App's own check run's webhook (a pass sets off no tick, so the process
 * that hears it journals it; `RepoTicker.heardGate`).
 */
export function journalGate(deps: Pick<TickDeps, "journal" | "clock">, memory: TickMemory, n: number, r: ClaimRecord, gate: GateFact): void {
  if (r.state !== "review" && r.state !== "merged") return;
  const key = `${n}:${gate.sha}:${gate.verdict}`;
  if (memory.gates.has(key)) return;
  memory.gates.add(key);
  journalEmitter(deps.journal, deps.clock)({ event: "GATE", item: String(n), class: taskClassOf({ claim_key: r.key }), sha: gate.sha, verdict: gate.verdict, by: "check-run" });
}
