import { describe, expect, it } from "vitest";
import { parseSnapshotComment, renderSnapshotComment, SNAPSHOT_MARKER } from "../../../src/core/brief/snapshot.js";
import { briefHash } from "../../../src/core/brief/parse-brief.js";
import { brief } from "./gate-fixtures.js";

describe("brief snapshot comments", () => {
  it("round-trips a brief with its hash", () => {
    const b = brief();
    const body = renderSnapshotComment(b);
    expect(body.startsWith(SNAPSHOT_MARKER)).toBe(true);
    const parsed = parseSnapshotComment(body, "comment 1");
    expect(parsed).toEqual({ ok: true, snapshot: { brief: b, hash: briefHash(b) } });
  });

  it("refuses a snapshot whose brief was edited after its hash", () => {
    const body = renderSnapshotComment(brief()).replace('"size_cap": 300', '"size_cap": 30000');
    const parsed = parseSnapshotComment(body, "comment 1");
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.reason).toContain("edited after the snapshot");
  });

  it.each([
    ["no marker", "```json\n{}\n```"],
    ["no json block", `${SNAPSHOT_MARKER}\nhello`],
    ["bad json", `${SNAPSHOT_MARKER}\n\`\`\`json\n{nope\n\`\`\``],
    ["no hash", `${SNAPSHOT_MARKER}\n\`\`\`json\n{"brief": {}}\n\`\`\``],
  ])("refuses %s", (_name, body) => {
    expect(parseSnapshotComment(body, "c").ok).toBe(false);
  });
});
