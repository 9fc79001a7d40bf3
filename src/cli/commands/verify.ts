import { parseArgs } from "node:util";
import { createVerifyProbe } from "../../adapters/create-verify-probe.js";
import { systemClock } from "../../adapters/local/system-clock.js";
import type { VerifyVerdict } from "../../core/verify/converge.js";
import { progressLine } from "../../core/verify/progress-line.js";
import { redactUrl } from "../../core/verify/redact-url.js";
import { verdictLine } from "../../core/verify/render-verdict.js";
import { runVerification } from "../../core/verify/run-verification.js";
import type { VerifyClock } from "../../core/verify/run-verification.js";
import { parseVerifyOptions, VERIFY_DEFAULTS } from "../../core/verify/verify-options.js";
import type { CliCommand, CliIo } from "../cli-io.js";
import { humanDuration } from "../human-duration.js";
import { argsErrorMessage, usageError } from "../usage-error.js";

const usage = `Usage: bosun verify --url URL --expect VALUE [options]
       bosun verify --command CMD --expect VALUE [options]

Polls a target until it reports VALUE on K consecutive probes; progress goes to stderr, the
verdict to stdout.

Target (one):
  --url URL            GET this http(s) URL
  --command CMD        run CMD through the shell and read its stdout
Where the version is (at most one; default: the whole body, trimmed):
  --field PATH         a JSON field: dotted (build.sha) or a JSON pointer (/build/sha)
  --header NAME        a response header (with --url)
  --match REGEX        a regular expression; its first group (or whole match) is the version
Timing:
  --timeout DUR        overall deadline (default ${VERIFY_DEFAULTS.timeout})
  --interval DUR       pause between probes (default ${VERIFY_DEFAULTS.interval}); failed probes back off from it
  --consecutive K      matching probes in a row needed (default ${VERIFY_DEFAULTS.consecutive})
  --probe-timeout DUR  limit for one probe (default ${VERIFY_DEFAULTS.probeTimeout})
  --seed N             seed for the retry jitter (default: varies per run)
Output:
  --json               print the verdict and its evidence as JSON

Durations: 250ms, 90s, 5m, 1h or a number of seconds. A SHA matches its own prefix.
Exit: 0 verified · 1 mismatch or flapping (names the version seen) · 3 unreachable · 2 usage error`;

/** Exit codes of `bosun verify` (DESIGN.md, "The bosun command"). */
const EXIT: Record<VerifyVerdict["kind"], number> = { verified: 0, mismatch: 1, unreachable: 3 };

/** Test seam: the real clock and fetch unless a test passes its own. */
export interface VerifyCommandDeps {
  readonly clock?: VerifyClock;
  readonly fetch?: typeof globalThis.fetch;
}

/** Builds the command; the default export uses the real clock and fetch. */
export function createVerifyCommand(deps: VerifyCommandDeps = {}): CliCommand {
  return {
    summary: "poll a deployed target until it reports the expected version",
    usage,
    run: (args, io) => runVerify(args, io, deps),
  };
}

async function runVerify(args: readonly string[], io: CliIo, deps: VerifyCommandDeps): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: "string" },
        command: { type: "string" },
        expect: { type: "string" },
        field: { type: "string" },
        header: { type: "string" },
        match: { type: "string" },
        timeout: { type: "string" },
        interval: { type: "string" },
        consecutive: { type: "string" },
        "probe-timeout": { type: "string" },
        seed: { type: "string" },
        json: { type: "boolean" },
      },
    });
    values = parsed.values;
  } catch (err) {
    return usageError(io, "verify", argsErrorMessage(err));
  }
  const str = (name: string): string | undefined => {
    const v = values[name];
    return typeof v === "string" ? v : undefined;
  };
  const clock = deps.clock ?? systemClock;
  const parsed = parseVerifyOptions(
    {
      url: str("url"),
      command: str("command"),
      expect: str("expect"),
      field: str("field"),
      header: str("header"),
      match: str("match"),
      timeout: str("timeout"),
      interval: str("interval"),
      consecutive: str("consecutive"),
      probeTimeout: str("probe-timeout"),
      seed: str("seed"),
    },
    clock.now(),
  );
  if (!parsed.ok) {
    // Each problem on its line, then once where to get help.
    return usageError(io, "verify", parsed.problems.join("; "));
  }
  const { target, config } = parsed.options;
  const shown = target.kind === "url" ? redactUrl(target.url) : target.command;
  const probe = createVerifyProbe(target, { cwd: io.cwd, env: io.env, ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }) });

  io.stderr.write(
    `verifying ${shown}: expecting ${config.expected} on ${config.consecutive} consecutive probe(s), ` +
      `every ${humanDuration(config.intervalMs)}, for up to ${humanDuration(config.timeoutMs)}\n`,
  );
  const verdict = await runVerification({
    probe,
    clock,
    config,
    onProbe: (obs, state, next) => io.stderr.write(`${progressLine(obs, state, next)}\n`),
  });
  if (values["json"] === true) {
    io.stdout.write(`${JSON.stringify({ target: shown, ...verdict })}\n`);
  } else {
    io.stdout.write(`${verdictLine(verdict, { target: shown })}\n`);
  }
  return EXIT[verdict.kind];
}

export default createVerifyCommand();
