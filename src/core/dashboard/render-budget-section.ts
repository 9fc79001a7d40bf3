import { formatUsd } from "../budget/budget-cap.js";
import type { BudgetView, SpendByOutcome } from "../budget/budget-view.js";
import { shortUtc } from "./relative-time.js";

/**
 * The dashboard's money (docs/budgets.md): each cap of `budgets:` with what its window spent and
 * reserved, what is left and when it resets; then what the fleet spent today and this week, split
 * by what became of the runs — accepted work against runs that failed, were refused or were never
 * accepted. Absolute times and amounts only, so an unchanged state renders the same text.
 */
export function renderBudgetSection(budget: BudgetView | undefined): string[] {
  if (budget === undefined) return [];
  const out = ["## Budget", ""];
  if (budget.caps.length === 0) out.push("No cap is set under `budgets:` in `.github/bosun.yml`: items reserve what they name, and nothing is held for money.", "");
  else {
    out.push("Read from the claim records: *spent* is what runs reported, or their reservation when they reported nothing; *reserved* is held by runs in flight.", "");
    out.push("| cap | spent | reserved | left | resets |", "|---|---:|---:|---:|---|");
    for (const c of budget.caps) {
      const left = Math.max(0, c.micros - c.spent - c.reserved);
      out.push(`| \`${c.name.replace(/[`|]/g, "'")}\`: ${formatUsd(c.micros)} per ${c.window === "day" ? "UTC day" : "week"} | ${formatUsd(c.spent)} | ${formatUsd(c.reserved)} | ${formatUsd(left)} | ${shortUtc(c.resetsAt)} |`);
    }
    out.push("");
  }
  out.push(`Spent today (UTC): ${split(budget.today)}.`, "", `Spent this week (from Monday): ${split(budget.week)}.`, "");
  return out;
}

function split(s: SpendByOutcome): string {
  return `${formatUsd(s.accepted + s.failed + s.open)} — ${formatUsd(s.accepted)} on accepted work, ${formatUsd(s.failed)} on runs that failed, were refused or were never accepted, ${formatUsd(s.open)} on runs in flight or in review`;
}
