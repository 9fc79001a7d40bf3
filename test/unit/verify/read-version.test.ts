import { describe, expect, it } from "vitest";
import { readPath, readVersion } from "../../../src/core/verify/read-version.js";
import type { VersionSource } from "../../../src/core/verify/read-version.js";

const body = JSON.stringify({ version: "1.2.3", build: { sha: "abc1234", "a/b": "slash", n: 42, list: ["x", "y"] }, nil: null });

describe("readVersion", () => {
  it.each<[string, VersionSource, string, string]>([
    ["a top-level field", { kind: "field", path: "version" }, body, "1.2.3"],
    ["a dotted path", { kind: "field", path: "build.sha" }, body, "abc1234"],
    ["a JSON pointer", { kind: "field", path: "/build/sha" }, body, "abc1234"],
    ["a JSON pointer with an escaped slash", { kind: "field", path: "/build/a~1b" }, body, "slash"],
    ["an array index in a dotted path", { kind: "field", path: "build.list.1" }, body, "y"],
    ["a number field, as text", { kind: "field", path: "build.n" }, body, "42"],
    ["the whole body, trimmed", { kind: "body" }, "  v7\n", "v7"],
    ["a regex's first group", { kind: "regex", pattern: "version: (\\S+)" }, "name: x\nversion: 9.9\n", "9.9"],
    ["a regex's whole match when it has no group", { kind: "regex", pattern: "v\\d+" }, "running v12 now", "v12"],
  ])("reads %s", (_name, source, text, value) => {
    expect(readVersion(source, text)).toMatchObject({ kind: "value", value });
  });

  it("reads a header whatever its case", () => {
    expect(readVersion({ kind: "header", name: "X-Version" }, "", { "x-version": "2.0" })).toMatchObject({ kind: "value", value: "2.0" });
  });

  it.each<[string, VersionSource, string, string]>([
    ["a body that is not JSON", { kind: "field", path: "version" }, "<html>oops</html>", "not-json"],
    ["a missing field", { kind: "field", path: "build.ref" }, body, "field-missing"],
    ["a path through a scalar", { kind: "field", path: "version.major" }, body, "field-missing"],
    ["an object where a version should be", { kind: "field", path: "build" }, body, "not-a-version"],
    ["a null field", { kind: "field", path: "nil" }, body, "not-a-version"],
    ["a pattern that does not match", { kind: "regex", pattern: "version=(\\d+)" }, "nothing here", "no-match"],
    ["an empty body", { kind: "body" }, "   ", "not-a-version"],
    ["an HTML page as a plain-text version", { kind: "body" }, `<html>${"x".repeat(300)}</html>`, "not-a-version"],
    ["a missing header", { kind: "header", name: "x-version" }, "", "header-missing"],
    // Seen failing before the fix: read as "1733212345678901200" and "Infinity", so a different
    // build number verified and the exact one did not.
    ["a whole number past 2^53, which a double cannot hold", { kind: "field", path: "build" }, '{"build":1733212345678901234}', "not-a-version"],
    ["a number past the largest double", { kind: "field", path: "v" }, '{"v":1e999}', "not-a-version"],
  ])("answers could-not-check for %s", (_name, source, text, code) => {
    expect(readVersion(source, text)).toMatchObject({ kind: "unreachable", code });
  });
});

describe("readPath", () => {
  it("does not read inherited properties", () => {
    expect(readPath({}, "constructor")).toBeUndefined();
    expect(readPath({}, "/__proto__")).toBeUndefined();
  });
});
