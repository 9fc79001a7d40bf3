import { describe, expect, it } from "vitest";
import { isDeployer, untrustedDeployment } from "../../../src/core/verify/untrusted-deployment.js";
import { readVerifyTrust } from "../../../src/action/verify/read-verify-trust.js";
import { DEFAULT_CONFIG } from "../../../src/core/config/bosun-config.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import { recordingIo } from "../../integration/verify/fake-action-io.js";

const trust = { deployers: ["github-actions[bot]", "deployer[bot]"], hosts: ["shop.example.com", "127.0.0.1:8080"] };
const by = (creator: string | undefined, statusCreator = creator) => ({ creator, statusCreator });

describe("which deployments verify believes", () => {
  it.each([
    ["a deployment an agent created", by("mallory"), "https://shop.example.com/v", true, "created by mallory"],
    ["a deployment whose status an agent posted", by("github-actions[bot]", "mallory"), "https://shop.example.com/v", true, "posted by mallory"],
    ["a user account named like an allowed bot", by("deployer"), "https://shop.example.com/v", true, "created by deployer"],
    ["a deployment with no creator in the event", by(undefined), "https://shop.example.com/v", true, "an unnamed account"],
    ["an environment_url on a host nobody listed", by("github-actions[bot]"), "https://evil.example.net/v", true, "evil.example.net"],
    ["a listed host on another port than the one listed", by("github-actions[bot]"), "http://127.0.0.1:9999/v", true, "not an allowed host"],
    ["a listed host's look-alike", by("github-actions[bot]"), "https://shop.example.com.evil.net/v", true, "not an allowed host"],
  ])("refuses %s", (_name, deployment, url, fromEvent, why) => {
    expect(untrustedDeployment(deployment, url, fromEvent, trust)).toContain(why);
  });

  it.each([
    ["an allowed deployer's deployment on a listed host", by("GitHub-Actions[bot]"), "https://SHOP.example.com/version", true],
    ["a listed host and port", by("deployer[bot]"), "http://127.0.0.1:8080/v", true],
    ["any host when the workflow named the URL itself", by("github-actions[bot]"), "https://anything.example.org/v", false],
    ["a run that is about no deployment (a step after deploy)", undefined, undefined, false],
  ])("takes %s", (_name, deployment, url, fromEvent) => {
    expect(untrustedDeployment(deployment, url, fromEvent, trust)).toBeUndefined();
  });

  it("compares logins exactly, ignoring case only", () => {
    expect(isDeployer("Deployer[BOT]", trust)).toBe(true);
    expect(isDeployer("deployer", trust)).toBe(false);
    expect(isDeployer(undefined, trust)).toBe(false);
  });
});

describe("where verify's trust comes from", () => {
  const configured = (yaml: string) => async () => {
    const parsed = parseConfig(yaml);
    return parsed.ok ? { config: parsed.config, problems: [] } : { config: DEFAULT_CONFIG, problems: parsed.problems };
  };
  it("inputs win over the configuration; the configuration over the defaults", async () => {
    const config = configured("deployers: [\"deploy-app[bot]\"]\nverify: {hosts: [Shop.Example.com]}\n");
    expect(await readVerifyTrust(recordingIo({}), config)).toEqual({ ok: true, trust: { deployers: ["deploy-app[bot]"], hosts: ["shop.example.com"] } });
    expect(await readVerifyTrust(recordingIo({ deployers: "a[bot], b[bot]", "verify-hosts": "x.example.com" }), config)).toEqual({ ok: true, trust: { deployers: ["a[bot]", "b[bot]"], hosts: ["x.example.com"] } });
    expect(await readVerifyTrust(recordingIo({}), configured(""))).toEqual({ ok: true, trust: { deployers: ["github-actions[bot]"], hosts: [] } });
  });

  it("a broken configuration is an error naming the field, never a looser default", async () => {
    const read = await readVerifyTrust(recordingIo({}), configured("verify: {hosts: ['https://shop.example.com/']}\n"));
    expect(read.ok).toBe(false);
    expect(read.ok ? "" : read.problem).toContain("verify.hosts.0");
    expect((await readVerifyTrust(recordingIo({}), configured("deployers: []\n"))).ok).toBe(false);
  });
});
