import { describe, expect, it } from "vitest";
import { secretValues } from "../../../src/adapters/local/secret-values.js";

describe("secretValues: what is masked because of its variable's name", () => {
  it("takes credential-looking names, including the ones a denylist of TOKEN/SECRET missed", () => {
    const env = { GITHUB_TOKEN: "ghs_abc123456789", NPM_AUTH: "npm-auth-value", DEPLOY_KEY: "deploy-key-value", DATABASE_URL: "postgres://u:p@h/db", AUTH_HEADER: "Basic xyz123", PATH: "/usr/bin", GIT_AUTHOR_NAME: "Mona Lisa" };
    expect(secretValues(env).sort()).toEqual(["Basic xyz123", "deploy-key-value", "ghs_abc123456789", "npm-auth-value", "postgres://u:p@h/db"]);
  });

  it("leaves flags and small numbers alone: masking `true` would corrupt every report", () => {
    expect(secretValues({ DISABLE_AUTH: "true", SKIP_TOKEN_CHECK: "FALSE", TOKEN_TTL: "3600", API_KEY_ROTATION: "none" })).toEqual([]);
  });
});
