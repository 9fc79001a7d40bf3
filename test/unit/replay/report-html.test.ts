import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildReplayReport } from "../../../src/core/replay/build-replay-report.js";
import { buildTrace } from "../../../src/core/replay/build-trace.js";
import { generateTraceCsv } from "../../../src/core/replay/generate-trace-csv.js";
import { importBeadsCsv } from "../../../src/core/replay/import-beads-csv.js";
import { renderReplayHtml } from "../../../src/core/replay/render-replay-html.js";
import { REPLAY_POLICY_NAMES } from "../../../src/core/replay/replay-policies.js";
import { runReplay } from "../../../src/core/replay/run-replay.js";
import { svgsOf, textBoxes, textCollisions } from "./svg-text-boxes.js";

const TRACES = new URL("../../fixtures/traces/", import.meta.url).pathname;

function html(csv: string, name: string, workers: number): string {
  const imported = importBeadsCsv(csv, name);
  const trace = buildTrace([imported]);
  const run = runReplay(trace, { policies: [...REPLAY_POLICY_NAMES], workers });
  return renderReplayHtml(buildReplayReport(trace, [{ file: name, format: imported.format, items: imported.items.length }], workers, run.metrics, run.bound), run.queues);
}

const pages = [
  ["the shared events-claim trace, 4 workers", () => html(readFileSync(`${TRACES}beads_events_claim_trace.csv`, "utf8"), "beads_events_claim_trace.csv", 4)],
  ["a generated contended trace, 8 workers", () => html(generateTraceCsv({ items: 400, seed: 3, workers: 8 }), "gen:400", 8)],
] as const;

describe("the replay report, read at a glance", () => {
  it.each(pages)("draws no text over other text, nor off the canvas: %s", (_, page) => {
    const svgs = svgsOf(page());
    expect(svgs.length).toBeGreaterThanOrEqual(3);
    for (const svg of svgs) expect(textCollisions(svg)).toEqual([]);
  });

  it.each(pages)("labels the time axis with dates, not hours since the start: %s", (_, page) => {
    const line = svgsOf(page()).find((s) => s.includes("waiting over time")) ?? "";
    const ticks = textBoxes(line).map((b) => b.text).filter((t) => /\d/.test(t) && !/items/.test(t));
    expect(ticks.some((t) => /^\d{4}-\d{2}-\d{2}/.test(t) || /^[A-Z][a-z]{2} \d{1,2}/.test(t))).toBe(true);
    expect(ticks.some((t) => / h$/.test(t))).toBe(false);
  });

  it("writes dates a person reads, never raw ISO with milliseconds", () => {
    expect(pages[0][1]()).not.toMatch(/\d{2}:\d{2}:\d{2}\.\d{3}Z/);
  });

  it("folds the problems, counted per rule, inside a details element", () => {
    const page = pages[0][1]();
    const details = /<details>[\s\S]*?<\/details>/.exec(page)?.[0] ?? "";
    expect(details).toMatch(/35 skipped/);
    expect(details).toMatch(/53 defaulted/);
    expect(page.slice(0, page.indexOf("<details>"))).not.toMatch(/<li><code>/);
  });

  it("says which policies gave identical results", () => {
    expect(pages[0][1]()).toMatch(/hybrid<\/b> and <b>index<\/b> gave identical results/);
  });

  it("explains the lower bound in plain words, with a reference", () => {
    const page = pages[0][1]();
    expect(page).toMatch(/no policy can do better/i);
    expect(page).toMatch(/Smith/);
    expect(page).toMatch(/doi\.org|Naval Research Logistics/);
  });

  it("keeps every table narrow enough for the page's column (at most 8 columns)", () => {
    for (const table of pages[0][1]().match(/<table[\s\S]*?<\/table>/g) ?? []) {
      const header = /<tr>([\s\S]*?)<\/tr>/.exec(table)?.[1] ?? "";
      expect((header.match(/<th/g) ?? []).length).toBeLessThanOrEqual(8);
    }
  });
});
