import { z } from "zod";
import { readDuration } from "./duration.js";
import type { Band } from "./brief.js";

/** A brief id: what file names, `--id` and the `id` field must all be. */
export const BRIEF_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
/** `namespace:slug`, as the similarity guard tokenizes it. */
export const CLAIM_KEY = /^[a-z0-9][a-z0-9_-]{0,39}:[A-Za-z0-9][A-Za-z0-9._/-]{0,159}$/;
const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Whether a text that matches DATE names a real day and time: 2026-02-30 and 2026-13-01 do not. */
function isCalendarTime(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?(?:\.\d+)?(?:Z|([+-])(\d{2}):?(\d{2}))?$/.exec(value);
  if (m === null) return false;
  const [year, month, day, hour, minute, second, , offH, offM] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => (m[i] === undefined ? 0 : Number(m[i])));
  if (year === undefined || month === undefined || day === undefined || year < 1) return false;
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  if (day > days) return false;
  return (hour ?? 0) <= 23 && (minute ?? 0) <= 59 && (second ?? 0) <= 59 && (offH ?? 0) <= 23 && (offM ?? 0) <= 59;
}

const text = (what: string, max: number) =>
  z.string({ error: `${what} must be text` }).trim().min(1, `${what} must not be empty`).max(max, `${what} is longer than ${max} characters`);

const textList = (what: string) =>
  z.array(text(what, 500), { error: `must be a list of ${what}s` }).max(100, `at most 100 ${what}s`);

const duration = (what: string) =>
  z
    .union([z.string(), z.number()], { error: `${what} must be a duration such as 90s, 30m, 2h or a number of seconds` })
    .transform((value, ctx) => {
      const reading = readDuration(value);
      if (!reading.ok || reading.ms <= 0) {
        const problem = reading.ok ? "must be longer than 0" : reading.problem;
        ctx.addIssue({ code: "custom", message: `${what} '${String(value)}' ${problem}` });
        return z.NEVER;
      }
      return Math.ceil(reading.ms / 1000);
    });

const count = (what: string) =>
  z.number({ error: `${what} must be a whole number` }).int(`${what} must be a whole number`).positive(`${what} must be above 0`);

/** Dollars: a positive, finite amount a person could mean (at most $100,000 for one item). */
const usd = (what: string) =>
  z
    .number({ error: `${what} must be a number of US dollars, such as 2.50` })
    .finite(`${what} must be a number of US dollars, such as 2.50`)
    .positive(`${what} must be above 0`)
    .max(100_000, `${what} is implausibly large (at most 100000 dollars for one item)`);

const band = z
  .union([z.number(), z.string()], { error: "priority must be 0..4 or P0..P4" })
  .transform((value, ctx): Band => {
    const n = typeof value === "number" ? value : /^[Pp]?([0-4])$/.exec(value.trim())?.[1];
    const parsed = Number(n);
    if (n === undefined || !Number.isInteger(parsed) || parsed < 0 || parsed > 4) {
      ctx.addIssue({ code: "custom", message: `priority '${String(value)}' must be 0 (highest) to 4, or P0..P4` });
      return z.NEVER;
    }
    return parsed as Band;
  });

/** The brief as written (DESIGN.md, "The brief"); unknown fields are errors so typos are caught. */
export const briefInputSchema = z.strictObject({
  id: z.union([z.string(), z.number()]).transform(String).pipe(z.string().regex(BRIEF_ID, "id must be letters, digits, '.', '_' or '-' (at most 100), starting with a letter or digit")).optional(),
  goal: text("goal", 1000),
  constraints: z.strictObject(
    {
      paths: z.array(text("path", 300), { error: "constraints.paths must be a list of allowed path patterns" }).min(1, "at least one allowed path is required").max(200, "at most 200 paths"),
      notes: textList("note").default([]),
    },
    { error: "constraints must be a mapping with `paths` (required) and `notes`" },
  ),
  non_goals: textList("non-goal").default([]),
  acceptance: z.strictObject(
    {
      command: text("acceptance command", 2000),
      timeout: duration("acceptance timeout").optional(),
    },
    { error: "acceptance must be a mapping with `command` (required) and `timeout`" },
  ),
  size_cap: count("size_cap"),
  budget: z
    .strictObject(
      {
        wall_clock: duration("budget.wall_clock").optional(),
        steps: count("budget.steps").optional(),
        tokens: count("budget.tokens").optional(),
        tool_errors: count("budget.tool_errors").optional(),
        usd: usd("budget.usd").optional(),
      },
      { error: "budget must be a mapping of wall_clock, steps, tokens, tool_errors, usd" },
    )
    .optional(),
  priority: band.optional(),
  due: z
    .union([z.string(), z.date()], { error: "due must be a date such as 2026-12-05" })
    .transform((value) => (typeof value === "string" ? value.trim() : value.toISOString().slice(0, 10)))
    .pipe(z.string().regex(DATE, "due must be a date such as 2026-12-05 or an ISO 8601 time").refine(isCalendarTime, "due names a day or time that does not exist (month 01-12, a day the month has, hours 00-23, minutes and seconds 00-59)"))
    .optional(),
  pool: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, "pool must be a lower-case name (letters, digits, '-', '_')").optional(),
  tier: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, "tier must be a lower-case name").optional(),
  claim_key: z.string().regex(CLAIM_KEY, "claim_key must be namespace:slug, e.g. task:http-retry-after").optional(),
  blocked_by: z
    .array(z.union([z.string(), z.number()]).transform(String).pipe(z.string().regex(/^(#\d+|[A-Za-z0-9][A-Za-z0-9._-]{0,99})$/, "each blocker is a brief id or #issue-number")), { error: "blocked_by must be a list of brief ids or #issue numbers" })
    .default([]),
});

export type BriefInput = z.output<typeof briefInputSchema>;

