import { describe, expect, it } from "vitest";
import { labelMovesQueue } from "../../../src/core/config/moves-queue.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";

const renamed = parseConfig("labels: { queued: agents:waiting, ready: agents:go }\n");
if (!renamed.ok) throw new Error("config should parse");

describe("labels that move the scheduler's queue", () => {
  it.each([
    ["agents:waiting", true, "a renamed queued label"],
    ["bosun:queued", false, "the default name once the repository renamed it"],
    ["agents:go", false, "the ready label, which is the intake's"],
    ["bosun:claimed", true, "a default name the repository kept"],
    ["P1", true, "a priority"],
    ["pool/fast", true, "a pool"],
    ["bug", false, "anything else"],
  ])("%s → %s (%s)", (label, moves) => {
    expect(labelMovesQueue(label, renamed.config)).toBe(moves);
  });
});
