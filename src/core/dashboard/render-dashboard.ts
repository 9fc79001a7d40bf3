import { actionBox } from "./dashboard-actions.js";
import { DASHBOARD_MARKER, type DashboardState } from "./dashboard-state.js";
import { relativeTime, shortUtc } from "./relative-time.js";
import { renderBudgetSection } from "./render-budget-section.js";
import { renderSetupSection } from "./render-setup-section.js";

/** How many queued items each pool lists before "and N more"; the issue body is capped at 65,536. */
const MAX_ROWS = 50;

/**
 * The dashboard issue's body: pure markdown from the state, deterministic (the same state renders
 * the same text, so the upsert can skip unchanged bodies). Titles and reasons come from issues
 * anyone can write, so they are escaped: no markup, mentions or HTML get through.
 */
export function renderDashboard(state: DashboardState): string {
  const out: string[] = [DASHBOARD_MARKER, `# Bosun dashboard for ${escape(state.repo)}`, ""];
  const queued = state.pools.reduce((n, p) => n + p.queue.length, 0);
  const flying = state.pools.reduce((n, p) => n + p.inFlight.length, 0);
  const reviewing = state.review?.length ?? 0;
  const waiting = state.waiting?.length ?? 0;
  out.push(
    state.idle
      ? "**Idle**: nothing is queued, in flight or in review."
      : state.paused !== undefined
        ? `**Paused by budget**: ${queued} queued, nothing in flight: ${escape(state.paused)}.`
        : `**Working**: ${queued} queued, ${flying} in flight, ${reviewing} in review${waiting === 0 ? "" : `, ${waiting} waiting`}.`,
    "",
    // No "updated at" line: the body must stay the same while nothing changed, so the upsert can skip it.
    `Policy: \`${escape(state.policy)}\`.`,
    "",
  );
  if (state.configProblems.length > 0) {
    out.push("## Configuration problems", "", "`.github/bosun.yml` is invalid; Bosun keeps using the last valid configuration.", "");
    for (const p of state.configProblems) out.push(`- \`${code(p.field)}\`: ${escape(p.message)}`);
    out.push("");
  }
  out.push(...renderSetupSection(state.setup));
  for (const pool of state.pools) {
    out.push(`## Pool \`${code(pool.name)}\` (size ${pool.size})`, "");
    if (pool.inFlight.length > 0) {
      out.push("In flight:", "");
      for (const f of pool.inFlight) {
        const run = f.runUrl === undefined ? "" : ` ([run](${encodeURI(f.runUrl)}))`;
        out.push(`- ${ref(f.issue, f.title)}: held by \`${code(f.holder)}\`, epoch ${f.epoch}, lease ends ${relativeTime(f.leaseUntil, state.generatedAt)} (${shortUtc(f.leaseUntil)})${run}`);
      }
      out.push("");
    }
    // A pool of size 0 dispatches nothing: say so where the maintainer looks for their item.
    if (pool.size === 0) out.push(`Size 0: nothing in this pool is dispatched until \`.github/bosun.yml\` gives \`pools.${code(pool.name)}\` a size above 0 and a dispatch kind (see docs/dispatch.md).`, "");
    if (pool.queue.length === 0) out.push("Queue: empty.", "");
    else {
      out.push("Queue, in order (tick an item to hold it):", "");
      pool.queue.slice(0, MAX_ROWS).forEach((q, i) => out.push(`${i + 1}. ${actionBox("hold", q.issue)} ${ref(q.issue, q.title)} (P${q.band}): ${escape(q.reason)}`));
      if (pool.queue.length > MAX_ROWS) out.push(`\n…and ${pool.queue.length - MAX_ROWS} more.`);
      out.push("");
    }
  }
  out.push(...renderBudgetSection(state.budget));
  section(out, "In review", state.review ?? [], (r) => `- ${ref(r.issue, r.title)}: ${r.state === "merged" ? `#${r.pull} merged, waiting for a verified deployment` : `pull request #${r.pull}, bosun/gate ${escape(r.gate ?? "pending")}`}`);
  section(out, "Waiting", state.waiting ?? [], (w) => `- ${ref(w.issue, w.title)}: ${escape(w.reason)}`);
  section(out, "Needs a human", state.needsHuman, (n) => `- ${actionBox("retry", n.issue)} ${ref(n.issue, n.title)}: ${escape(n.reason)}`, "Tick an item to retry it with its approved brief.");
  section(out, "Held", state.held ?? [], (n) => `- ${actionBox("release", n.issue)} ${ref(n.issue, n.title)}: ${escape(n.reason)}`, "Tick an item to release its hold: its approved brief runs, never an edited text.");
  section(out, "Invalid briefs", state.invalid, (v) => `- ${ref(v.issue, v.title)}: ${v.problems.slice(0, 5).map((p) => `\`${code(p)}\``).join("; ")}${v.problems.length > 5 ? `; …and ${v.problems.length - 5} more` : ""}`);
  // Absolute times here: relative ones would rewrite an idle dashboard as the hours pass.
  section(out, "Recent lands", state.recentLands, (l) => `- ${l.ok ? `${actionBox("requeue", l.issue)} ✅` : "❌"} ${ref(l.issue, l.title)}: ${escape(l.summary)} (${shortUtc(l.at)})`, state.recentLands.some((l) => l.ok) ? "Tick a landed item to run it again." : undefined);
  if (state.needsHuman.length + (state.held?.length ?? 0) + state.pools.reduce((n, p) => n + p.queue.length, 0) > 0) {
    out.push("Only someone with write access can act from a checkbox; Bosun clears each box once it has acted on it.", "");
  }
  section(out, "Notes", state.notes ?? [], (n) => `- ${ref(n.issue, n.title)}: ${escape(n.note)}`);
  if (state.shadow !== undefined) {
    const { policy, ticks, differing } = state.shadow;
    const share = ticks === 0 ? "no ticks yet" : `differed on ${differing} of ${ticks} ticks (${((differing / ticks) * 100).toFixed(1)}%)`;
    out.push("## Shadow policy", "", `\`${escape(policy)}\` ${share}.`, "");
  }
  if (state.denials !== undefined && Object.keys(state.denials).length > 0) {
    // A high `similar` or `evidence` count is the guard's false-denial rate to look into.
    const counts = Object.entries(state.denials).sort(([a], [b]) => a.localeCompare(b)).map(([reason, n]) => `${escape(reason)} ${n}`);
    out.push("## Claims denied", "", `Since this process started: ${counts.join(", ")}. Each denial is journalled as \`DENY\` with its reason and detail.`, "");
  }
  if (state.metrics !== undefined) {
    out.push("## Fleet metrics", "", state.metrics.scope, "", "```text", state.metrics.text.replace(/```/g, "ˋˋˋ"), "```", "");
  }
  return out.join("\n");
}

function section<T>(out: string[], title: string, rows: readonly T[], line: (row: T) => string, intro?: string): void {
  if (rows.length === 0) return;
  out.push(`## ${title}`, "");
  if (intro !== undefined) out.push(intro, "");
  for (const row of rows.slice(0, MAX_ROWS)) out.push(line(row));
  if (rows.length > MAX_ROWS) out.push(`- …and ${rows.length - MAX_ROWS} more`);
  out.push("");
}

/** Markdown and HTML inert: escapes what renders, and breaks `@mentions` and `#refs` no one asked for. */
function escape(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(/[\\`*_{}[\]()<>#+!|~]/g, (c) => `\\${c}`)
    .replace(/@/g, "@\u200b")
    .slice(0, 300);
}

/** Text for inside a code span: backticks and newlines would end it. */
function code(text: string): string {
  return text.replace(/[`\r\n]/g, "'").slice(0, 300);
}

/** `#12 Honor Retry-After`; a title that is only the number (not read yet) is not repeated. */
function ref(issue: number, title: string): string {
  return title === "" || title === `#${issue}` ? `#${issue}` : `#${issue} ${escape(title)}`;
}
