import type { BudgetView } from "../budget/budget-view.js";
import type { SetupSection } from "./setup-section.js";

/** Everything the dashboard issue shows, as plain data; the scheduler's tick builds it, the intake too. */
export interface DashboardState {
  readonly repo: string;
  readonly generatedAt: number;
  readonly idle: boolean;
  readonly policy: string;
  readonly configProblems: readonly { field: string; message: string }[];
  readonly pools: readonly {
    name: string;
    size: number;
    queue: readonly { issue: number; title: string; band: number; reason: string }[];
    inFlight: readonly { issue: number; title: string; holder: string; epoch: number; leaseUntil: number; runUrl?: string }[];
  }[];
  /** Items whose pull request is open (gate, separation, merge) or merged and waiting for a verified deployment. */
  readonly review?: readonly { issue: number; title: string; pull: number; state: "review" | "merged"; gate?: string }[];
  /** Approved items that wait for something else than a slot (a blocker, a backoff, a changed brief), with what. */
  readonly waiting?: readonly { issue: number; title: string; reason: string }[];
  /** What a maintainer should know: a claim ref someone else wrote, an approval that does not count. */
  readonly notes?: readonly { issue: number; title: string; note: string }[];
  readonly needsHuman: readonly { issue: number; title: string; reason: string }[];
  /** Queued items a hold keeps from dispatch (`bosun:hold`): each can be released from the dashboard. */
  readonly held?: readonly { issue: number; title: string; reason: string }[];
  readonly invalid: readonly { issue: number; title: string; problems: readonly string[] }[];
  readonly recentLands: readonly { issue: number; title: string; ok: boolean; summary: string; at: number }[];
  readonly shadow?: { policy: string; ticks: number; differing: number };
  /** Claims denied since the process started, by reason (similar, evidence, held, not-ready): how often the guard says no. */
  readonly denials?: Readonly<Record<string, number>>;
  /** Fleet metrics (stop mix, gate rejections, cost per accepted task) as `bosun stats` prints them, and what they cover. */
  readonly metrics?: { scope: string; text: string };
  /** Spend against each cap of `budgets:` and by outcome, from the claim records (docs/budgets.md); absent when no money is watched. */
  readonly budget?: BudgetView;
  /** Nothing is in flight and the queue waits only for money: which cap, what is left, when it resets. */
  readonly paused?: string;
  /** What `bosun doctor` finds wrong with the repository's setup (render-setup-section.ts); absent until first read. */
  readonly setup?: SetupSection;
}

/** The hidden first line that identifies the dashboard issue among the bot's issues. */
export const DASHBOARD_MARKER = "<!-- bosun:dashboard -->";
/** The dashboard issue's title. */
export const DASHBOARD_TITLE = "Bosun dashboard";
