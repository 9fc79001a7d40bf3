/**
 * The workflow files the docs tell people to copy, parsed as GitHub parses YAML: the run name must
 * come out as Bosun matches it (`bosun #<item> epoch <epoch>`, a batch's `bosun #<item> epoch <epoch>, …`). Unquoted, `#` starts a comment and
 * every run is titled "bosun", so no replica but the dispatcher can find its run.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { batchRunTitle, runTitle } from "../../../src/core/scheduler/stop-from-run.js";

const DOCS = join(import.meta.dirname, "../../../docs");

/** The yaml blocks of a doc page that define a workflow (they have `on:` and `jobs:`). */
function workflows(page: string): Array<Record<string, unknown>> {
  const text = readFileSync(join(DOCS, page), "utf8");
  return [...text.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => parse(m[1] ?? "") as Record<string, unknown> | null)
    .filter((doc): doc is Record<string, unknown> => doc !== null && typeof doc === "object" && "jobs" in doc && "on" in doc);
}

/** What GitHub shows as the run's title for these inputs (only `${{ inputs.x }}` is filled in). */
const render = (template: string, inputs: Record<string, string>): string => template.replace(/\$\{\{\s*inputs\.(\w+)\s*\}\}/g, (_, k: string) => inputs[k] ?? "");

describe("documented dispatch workflows", () => {
  it.each(["dispatch.md", "action.md"])("%s: the run-name renders as the title Bosun matches", (page) => {
    const found = workflows(page).filter((w) => "run-name" in w);
    expect(found.length).toBeGreaterThan(0);
    // One item's form (inputs item and epoch) or a batch's (input title, which Bosun writes): one item renders alike.
    for (const w of found) expect(render(String(w["run-name"]), { item: "12", epoch: "3", title: batchRunTitle([{ item: "12", epoch: 3 }]).slice("bosun ".length) })).toBe(runTitle("12", 3));
  });
});
