import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { configJsonSchemaText } from "../../../src/core/config/config-json-schema.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";

const committed = readFileSync(new URL("../../../schema/bosun-config.schema.json", import.meta.url), "utf8");
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(committed) as object);

describe("the committed JSON Schema of .github/bosun.yml", () => {
  it("is what the zod schema generates today (run `npm run schema` after changing it)", () => {
    expect(committed).toBe(configJsonSchemaText());
  });

  // The schema an editor uses and the App's parser must agree on what they accept.
  it.each([
    ["the docs' example", "policy: hybrid\nshadow_policy: index\nlease: 30m\nattempts: 3\nlabels: { ready: bosun:ready }\npools:\n  default: { size: 2, tier: standard, dispatch: { kind: workflow, workflow: bosun-worker.yml } }\n  copilot: { size: 1, dispatch: { kind: assign, assignee: Copilot } }\nclaims: { ref_prefix: refs/bosun/claims/, namespaces: { task: {} } }\ngate: { sensitive_paths: [\".github/**\"], size_cap_ignore: [\"package-lock.json\"] }\nreviewer: { provider: none }\n", true],
    ["an empty mapping", "{}\n", true],
    ["a pool without a dispatch", "pools: { default: { size: 2 } }\n", false],
    ["a size that is not whole", "pools: { default: { size: 1.5, dispatch: { kind: comment } } }\n", false],
    ["an unknown top-level field", "polcy: hybrid\n", false],
    ["an unknown dispatch kind", "pools: { default: { size: 1, dispatch: { kind: email } } }\n", false],
    ["a pool name in capitals", "pools: { Default: { size: 1, dispatch: { kind: comment } } }\n", false],
    ["an unknown policy", "policy: fastest\n", false],
    ["a ref prefix without its slash", "claims: { ref_prefix: refs/bosun/claims }\n", false],
  ])("%s: schema and App agree (valid=%s)", (_name, text, valid) => {
    expect(parseConfig(text).ok).toBe(valid);
    expect(validate(parse(text))).toBe(valid);
  });
});
