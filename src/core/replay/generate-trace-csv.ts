import { seededRandom } from "../random/seeded-random.js";
import { HOUR_MS } from "./trace.js";

export interface GenerateOptions {
  readonly items: number;
  readonly seed: number;
  /** Workers per pool the trace is sized for. */
  readonly workers: number;
  /** Offered load: mean work arriving per hour ÷ worker-hours per hour (default 0.85). */
  readonly load?: number;
  readonly pools?: number;
  /** Share of items blocked by one or two recent items (default 0.1). */
  readonly blockedShare?: number;
}

// Classes with distinct duration scales, so a policy that learns them has something to learn.
const KINDS = [
  { name: "task", share: 0.55, medianH: 0.5 },
  { name: "bug", share: 0.2, medianH: 0.3 },
  { name: "feature", share: 0.12, medianH: 2 },
  { name: "epic", share: 0.05, medianH: 6 },
  { name: "chore", share: 0.08, medianH: 0.2 },
] as const;
const BAND_SHARES = [0.03, 0.25, 0.55, 0.14, 0.03];
const SIGMA = 1;
const START = Date.UTC(2026, 0, 1);

function pick<T>(r: number, items: readonly T[], share: (t: T) => number): T {
  let acc = 0;
  for (const it of items) {
    acc += share(it);
    if (r < acc) return it;
  }
  return items[items.length - 1] as T;
}

/**
 * A synthetic trace in the events-claim CSV shape (plus `blocks_on` and `pool`): Poisson
 * arrivals sized to an offered load, lognormal durations by class, a share of items blocked by
 * recent ones. Deterministic for a seed; for the benchmark and for checking the replay on
 * traces that are not the beads files.
 */
export function generateTraceCsv(options: GenerateOptions): string {
  const rnd = seededRandom(options.seed);
  const pools = options.pools ?? 1;
  const meanH = KINDS.reduce((s, k) => s + k.share * k.medianH, 0) * Math.exp((SIGMA * SIGMA) / 2);
  const perHour = ((options.load ?? 0.85) * options.workers * pools) / meanH;
  const blocked = options.blockedShare ?? 0.1;
  const rows: string[] = ["id,created_at,priority,issue_type,first_claim_at,closed_at,blocks_on,pool"];
  let t = START;
  for (let i = 0; i < options.items; i++) {
    t += (-Math.log(1 - rnd()) / perHour) * HOUR_MS;
    const kind = pick(rnd(), KINDS, (k) => k.share);
    const band = pick(rnd(), [0, 1, 2, 3, 4], (b) => BAND_SHARES[b] as number);
    const normal = Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
    const duration = Math.round(kind.medianH * Math.exp(SIGMA * normal) * HOUR_MS);
    const claim = t + Math.round(rnd() * HOUR_MS);
    let blocks = "";
    if (i > 0 && rnd() < blocked) {
      const a = i - 1 - Math.floor(rnd() * Math.min(i, 200));
      const b = i - 1 - Math.floor(rnd() * Math.min(i, 200));
      blocks = a === b ? `g${a}` : `g${a}|g${b}`;
    }
    const pool = pools === 1 ? "default" : `pool${Math.floor(rnd() * pools)}`;
    rows.push(`g${i},${new Date(Math.round(t)).toISOString()},${band},${kind.name},${new Date(claim).toISOString()},${new Date(claim + duration).toISOString()},${blocks},${pool}`);
  }
  return `${rows.join("\n")}\n`;
}
