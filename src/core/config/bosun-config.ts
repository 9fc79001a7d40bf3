import { z } from "zod";
import { parseDuration } from "../brief/duration.js";
import { DEFAULT_SENSITIVE, DEFAULT_SIZE_IGNORE } from "../gate/gate-config.js";
import { POLICY_NAMES } from "../queue/queue-policy.js";
import { DEFAULT_LABELS } from "./labels.js";

const name = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, "must be a lower-case name (letters, digits, '-', '_')");
const duration = (what: string, fallback: string) =>
  z
    .union([z.string(), z.number()])
    .meta({ description: `${what}: a duration such as 90s, 30m, 2h (a bare number is seconds)` })
    .default(fallback)
    .transform((value, ctx) => {
      const seconds = parseDuration(value);
      if (seconds === undefined || seconds <= 0) {
        ctx.addIssue({ code: "custom", message: `${what} '${String(value)}' is not a duration such as 90s, 30m, 2h` });
        return z.NEVER;
      }
      return seconds;
    });

/** How a pool hands a claimed item to its agent (DESIGN.md, "The app"). */
const dispatchSchema = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({
      kind: z.literal("workflow"),
      workflow: z.string().min(1, "the workflow file or id"),
      ref: z.string().min(1).optional(),
      batch: z
        .boolean()
        .optional()
        .meta({ description: "Dispatch the items granted together as one run (inputs title and items, one matrix leg each, up to 10 a run) instead of one run per item (inputs item, epoch, brief_hash): the workflow must take that form (docs/dispatch.md)" }),
    }),
    z.strictObject({ kind: z.literal("assign"), assignee: z.string().min(1, "the agent account to assign, e.g. Copilot") }),
    z.strictObject({ kind: z.literal("label"), label: z.string().min(1, "the trigger label, e.g. claude") }),
    z.strictObject({ kind: z.literal("comment"), mention: z.string().optional(), instruction: z.string().max(2000).optional() }),
  ],
  { error: "dispatch.kind must be one of workflow, assign, label, comment" },
);

const poolSchema = z.strictObject({
  size: z.number().int("size must be a whole number").min(0).max(256),
  tier: name.default("standard"),
  dispatch: dispatchSchema,
});

const namespaceSchema = z.strictObject({ once_ever: z.boolean().optional(), artifact_dir: z.string().min(1).optional() });

/** Whose deployments `verify` believes when no list is configured: GitHub Actions' own identity (a job's `environment:` deployment). */
export const DEFAULT_DEPLOYERS: readonly string[] = ["github-actions[bot]"];

const hostname = z
  .string()
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i, "must be a host name such as shop.example.com (optionally with :port), no scheme or path")
  .transform((h) => h.toLowerCase());

/**
 * The most pools (and claim namespaces) a configuration names. Each pool is a label the App
 * creates and a queue on the dashboard; 3,000 of them was a valid configuration.
 */
export const MAX_POOLS = 32;

/**
 * A record of named entries, at most `most`, read into an object with no prototype: a pool named
 * `constructor` (any name JavaScript objects already have) is then looked up as itself, never as
 * what every object inherits. (`__proto__` itself never gets this far: the YAML reader refuses it.)
 */
function namedRecord<T extends z.ZodType>(value: T, most: number, what: string) {
  return z
    .record(name, value)
    .meta({ maxProperties: most })
    .refine((r) => Object.keys(r).length <= most, { message: `at most ${most} ${what}` })
    .overwrite((r) => Object.assign(Object.create(null) as typeof r, r));
}

/** US dollars: positive, finite, and at most a million (a cap past that is a typo). */
const dollars = z
  .number({ error: "must be a number of US dollars, such as 25" })
  .finite("must be a number of US dollars, such as 25")
  .positive("must be above 0")
  .max(1_000_000, "is implausibly large (at most 1000000)")
  .optional();

/** Money caps (DESIGN.md, "Budgets"): per UTC day, per week (Monday 00:00 UTC), and per item. */
const budgetsSchema = z
  .strictObject({
    fleet: z
      .strictObject({
        day_usd: dollars.meta({ description: "What the whole fleet may spend per UTC day, every pool and agent together" }),
        week_usd: dollars.meta({ description: "What the whole fleet may spend per week (from Monday 00:00 UTC)" }),
      })
      .prefault({}),
    item_usd: dollars.meta({ description: "What an item reserves before dispatch when its brief sets no budget.usd and its pool no item_usd" }),
    pools: namedRecord(
      z.strictObject({
        day_usd: dollars.meta({ description: "What this pool may spend per UTC day" }),
        week_usd: dollars.meta({ description: "What this pool may spend per week (from Monday 00:00 UTC)" }),
        item_usd: dollars.meta({ description: "What an item of this pool reserves when its brief sets no budget.usd" }),
      }),
      MAX_POOLS,
      "pool budgets",
    ).prefault({}),
  })
  .prefault({});

/** `.github/bosun.yml`, validated: every field optional but what a pool must say. */
export const bosunConfigSchema = z.strictObject({
  policy: z.enum(POLICY_NAMES).default("hybrid"),
  shadow_policy: z.enum(POLICY_NAMES).optional(),
  lease: duration("lease", "30m"),
  attempts: z.number().int().min(1).max(20).default(3),
  labels: z
    .strictObject({
      ready: z.string().min(1).optional(),
      queued: z.string().min(1).optional(),
      claimed: z.string().min(1).optional(),
      review: z.string().min(1).optional(),
      done: z.string().min(1).optional(),
      needsHuman: z.string().min(1).optional(),
      invalidBrief: z.string().min(1).optional(),
      hold: z.string().min(1).optional(),
    })
    .default({})
    .transform((l) => ({ ...DEFAULT_LABELS, ...Object.fromEntries(Object.entries(l).filter(([, v]) => v !== undefined)) }) as typeof DEFAULT_LABELS),
  // Without a configuration nothing is dispatched: briefs are validated and queued, and the
  // dashboard shows them, until a maintainer gives a pool a size and a dispatch kind.
  pools: namedRecord(poolSchema, MAX_POOLS, "pools").prefault({ default: { size: 0, tier: "standard", dispatch: { kind: "comment" } } }),
  claims: z
    .strictObject({
      ref_prefix: z.string().regex(/^refs\/[A-Za-z0-9._/-]+\/$/, "must look like refs/bosun/claims/ (ending in /)").default("refs/bosun/claims/"),
      namespaces: namedRecord(namespaceSchema, MAX_POOLS, "claim namespaces").prefault({}),
    })
    .prefault({}),
  gate: z
    .strictObject({
      sensitive_paths: z.array(z.string().min(1)).default([...DEFAULT_SENSITIVE]),
      size_cap_ignore: z.array(z.string().min(1)).default([...DEFAULT_SIZE_IGNORE]),
    })
    .default({ sensitive_paths: [...DEFAULT_SENSITIVE], size_cap_ignore: [...DEFAULT_SIZE_IGNORE] }),
  reviewer: z
    .strictObject({
      provider: z.enum(["none", "anthropic", "openai", "command"]).default("none"),
      model: z.string().optional(),
      base_url: z.url().optional(),
      command: z.string().optional(),
      mode: z.enum(["advisory", "blocking"]).default("advisory"),
    })
    .default({ provider: "none", mode: "advisory" }),
  /**
   * Logins whose deployments `verify` checks and lands items for; a deployment (or its status) made
   * by anyone else is refused, and never becomes the start of a later deployment's range.
   */
  deployers: z
    .array(z.string().min(1).transform((l) => l.trim()))
    .min(1, "name at least one deployer (the default is github-actions[bot])")
    .default([...DEFAULT_DEPLOYERS])
    .meta({ description: "Logins (e.g. github-actions[bot], your deploy App's <slug>[bot]) whose deployments and deployment statuses verify believes; default github-actions[bot]" }),
  verify: z
    .strictObject({
      hosts: z.array(hostname).default([]).meta({ description: "Hosts a deployment's environment_url may point at; without one listed, verify probes only a URL its workflow names (input url)" }),
      required: z.boolean().default(false).meta({ description: "Whether an item is done only once a deployment of its merge commit is verified (the verify mode lands it); otherwise the merge ends it" }),
    })
    .default({ hosts: [], required: false }),
  /** Logins of agent accounts: their work needs a human approver who is not them (separation). */
  agents: z.array(z.string().min(1)).default([]),
  excluded_approvers: z.array(z.string().min(1)).default([]),
  /**
   * Who may approve an item for an agent (add the ready label) or land one by hand (`/bosun land`):
   * at least this role, never the issue's author or an agent (docs/lifecycle.md). An agent that
   * pushes branches has write access, so write alone would let it approve its own work.
   */
  approval: z
    .strictObject({
      role: z.enum(["write", "maintain", "admin"], { error: "approval.role must be write, maintain or admin" }).default("maintain"),
      /** Let an issue's author approve it (off: the person who asked for the work is not the one who lets it run). */
      author_may_approve: z.boolean().default(false),
    })
    .default({ role: "maintain", author_may_approve: false }),
  /**
   * How long a grant to a `workflow` pool may go without its run showing before it is taken back:
   * its granter died between grant and dispatch. The granter itself dispatches only within the
   * first half of it, so a slow granter and the taker never both start a worker. Other dispatch
   * kinds show their worker only by its pull request, so their grants wait for the lease.
   */
  dispatch_deadline: duration("dispatch_deadline", "60s"),
  /**
   * Money caps: the fleet's and each pool's spend per UTC day and per week, and what an item
   * reserves when its brief names no `budget.usd`. An item is dispatched only when its
   * reservation fits under every cap that covers it (docs/budgets.md).
   */
  budgets: budgetsSchema,
})
  // A budget for a pool that does not exist caps nothing: say so where it is written.
  .superRefine((config, ctx) => {
    for (const pool of Object.keys(config.budgets.pools)) {
      if (!(pool in config.pools)) ctx.addIssue({ code: "custom", path: ["budgets", "pools", pool], message: `no pool named '${pool}' is configured under pools:` });
    }
  });

export type BosunConfig = z.output<typeof bosunConfigSchema>;
export type PoolConfig = BosunConfig["pools"][string];
export type DispatchConfig = PoolConfig["dispatch"];
export type BudgetsConfig = BosunConfig["budgets"];

/** The configuration a repository without `.github/bosun.yml` gets. */
export const DEFAULT_CONFIG: BosunConfig = bosunConfigSchema.parse({});
