/**
 * The App's scheduler handlers make a repository's ticker only for a delivery they hear: Bosun's
 * own label writes, anyone else's check runs and runs no worker or verification started are
 * ignored before it, as they were before `hearDelivery` was extracted.
 */
import { describe, expect, it, vi } from "vitest";
import type { Probot } from "probot";

const made = vi.hoisted(() => ({ tickers: 0 }));
vi.mock("../../../src/adapters/github/tick/repo-ticker.js", () => ({
  RepoTicker: class {
    readonly lastConfig = undefined;
    readonly github = { heardPull: () => undefined, invalidate: () => undefined };
    constructor() {
      made.tickers++;
    }
    hint(): void {}
    ask(): void {}
    lastSeen(): undefined {
      return undefined;
    }
    heardGate(): "ignored" {
      return "ignored";
    }
  },
}));

const { registerScheduler } = await import("../../../src/app/scheduler/register-scheduler.js");
const { parseConfig } = await import("../../../src/core/config/parse-config.js");

type Handler = (context: { name: string; payload: Record<string, unknown>; octokit: unknown }) => Promise<void>;
const REPOSITORY = { name: "app", owner: { login: "acme" }, default_branch: "main" };

function app() {
  const handlers = new Map<string, Handler[]>();
  const probot = {
    on(names: string | string[], fn: Handler) {
      for (const name of Array.isArray(names) ? names : [names]) handlers.set(name, [...(handlers.get(name) ?? []), fn]);
    },
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  };
  const parsed = parseConfig("pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n");
  if (!parsed.ok) throw new Error("config");
  registerScheduler(probot as unknown as Probot, {
    loadConfig: () => Promise.resolve({ config: parsed.config, problems: [] }),
    clock: { now: () => 0, sleep: () => Promise.resolve() },
    journal: { append: () => undefined },
    botLogin: () => Promise.resolve("bosun[bot]"),
  });
  return async (name: string, payload: Record<string, unknown>): Promise<void> => {
    const action = typeof payload.action === "string" ? `${name}.${payload.action}` : undefined;
    const fns = [...(handlers.get(name) ?? []), ...(action === undefined ? [] : (handlers.get(action) ?? []))];
    await Promise.all(fns.map((fn) => fn({ name, payload: { ...payload, repository: REPOSITORY }, octokit: {} })));
  };
}

describe("the App's scheduler handlers", () => {
  it("make no ticker for a delivery they ignore, and one for the first they hear", async () => {
    made.tickers = 0;
    const deliver = app();
    await deliver("issues", { action: "labeled", issue: { number: 7 }, label: { name: "bosun:ready" }, sender: { login: "bosun[bot]" } });
    await deliver("check_run", { action: "completed", check_run: { id: 1, name: "ci", head_sha: "a".repeat(40), status: "completed", conclusion: "failure", app: { slug: "ci" } }, sender: { login: "mallory" } });
    await deliver("workflow_run", { action: "completed", workflow_run: { event: "push", display_title: "CI" }, sender: { login: "mona" } });
    expect(made.tickers).toBe(0);
    // A pull request pushed to is heard (its listing mended) without a tick.
    await deliver("pull_request", { action: "synchronize", pull_request: { number: 3 }, sender: { login: "mona" } });
    expect(made.tickers).toBe(1);
  });
});
