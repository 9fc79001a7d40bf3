import { describe, expect, it } from "vitest";
import { checkResult } from "../../../src/core/gate/check-result.js";
import { gateReport } from "../../../src/core/gate/gate-report.js";
import { renderGateMarkdown } from "../../../src/core/gate/render-gate-report.js";

describe("the gate summary's markdown", () => {
  const output = "npm test exit 1 after 3.2s\n> vitest run\nFAIL src/**/x.test.ts | expected **bold**\n```\nnot a fence end";
  const md = renderGateMarkdown(
    gateReport({ id: "x", hash: "sha256:0123456789abcdef0123", source: "snapshot" }, [
      checkResult("acceptance", "failed", output),
      checkResult("paths", "failed", "src/**/*.ts allowed; lib/x.ts is not"),
    ]),
  );
  const rows = md.split("\n").filter((l) => l.startsWith("| "));

  it("keeps multi-line evidence out of the table cell: its first line there, the rest below as code", () => {
    const acceptance = rows.find((r) => r.startsWith("| acceptance"));
    expect(acceptance).toBe("| acceptance | ❌ failed | npm test exit 1 after 3.2s (full evidence below) |");
    expect(md).not.toContain("<br>");
    expect(md).toContain("<details><summary>acceptance: full evidence</summary>");
    // The block's fence outlasts the backticks inside it, so the output cannot end it.
    expect(md).toContain(`\`\`\`\`text\n${output}\n\`\`\`\``);
  });

  it("escapes markdown in cells: a glob's ** is not bold, a pipe does not split the row", () => {
    expect(rows.find((r) => r.startsWith("| paths"))).toBe("| paths | ❌ failed | src/\\*\\*/\\*.ts allowed; lib/x.ts is not |");
  });
});
