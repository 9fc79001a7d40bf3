// Shared body of the agent stand-ins: each is started by the name of the real tool (a symlink on
// PATH named `claude`, `codex`, `aider` or `openhands`), records what it was given, edits the
// files its scenario names and prints what the real tool prints, in its documented format.
// Nothing reaches it through the environment on purpose: the scenario and the records live in
// the folder of the symlink it was started through, so the environment it records is exactly
// the one Bosun handed it.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export function standIn(tool, format) {
  const bin = dirname(process.argv[1]);
  const args = process.argv.slice(2);
  const recordsDir = join(bin, "records");
  mkdirSync(recordsDir, { recursive: true });
  // Scenarios are keyed by the item Bosun says this run is for ("*" for any), one entry per attempt.
  const item = process.env.BOSUN_ITEM ?? "-";
  const prefix = `${tool}-${encodeURIComponent(item)}-`;
  const previous = readdirSync(recordsDir).filter((f) => f.startsWith(prefix)).length;
  const byItem = JSON.parse(readFileSync(join(bin, "scenario.json"), "utf8"))[tool] ?? {};
  const entry = byItem[item] ?? byItem["*"] ?? {};
  const list = Array.isArray(entry) ? entry : [entry];
  const scenario = list[Math.min(previous, list.length - 1)] ?? {};
  // Like the real CLIs, an option the tool does not have is a usage error (exit 2), so a
  // misspelt flag fails the test instead of being silently ignored.
  const unknown = format.unknownOption?.(args);
  if (unknown !== undefined) {
    process.stderr.write(`error: unknown option '${unknown}'\n`);
    process.exit(2);
  }
  const prompt = format.prompt(args);
  writeFileSync(join(recordsDir, `${prefix}${previous + 1}.json`), JSON.stringify({ tool, item, args, env: process.env, cwd: process.cwd(), prompt }, null, 2));
  for (const [path, content] of Object.entries(scenario.edits ?? {})) {
    mkdirSync(dirname(join(process.cwd(), path)), { recursive: true });
    writeFileSync(join(process.cwd(), path), content);
  }
  // A well-behaved model of a tool that can write files declares its finish in $BOSUN_RESULT
  // (`result: null` in a scenario: it just stops); aider's model cannot write that file at all.
  const result = scenario.result === undefined ? (format.declares && (scenario.outcome ?? "done") === "done" ? { kind: "done" } : undefined) : scenario.result;
  if (result !== undefined && result !== null && process.env.BOSUN_RESULT !== undefined) writeFileSync(process.env.BOSUN_RESULT, JSON.stringify(result));
  if (scenario.stderr !== undefined) process.stderr.write(scenario.stderr);
  process.stderr.write(`${tool} stand-in: scenario ${scenario.outcome ?? "done"}\n`);
  const finish = () => {
    process.stdout.write(format.output(scenario.outcome ?? "done", args, scenario));
    process.exitCode = scenario.exit ?? (scenario.outcome === undefined || scenario.outcome === "done" ? 0 : 1);
  };
  if (scenario.sleepMs !== undefined) setTimeout(finish, scenario.sleepMs);
  else finish();
}

/** The value after `flag` in `args`. */
export function flag(args, name) {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
}

/**
 * The first argument that is not one of `options` (name → "flag" | "value" | "list"), or
 * undefined. Positional arguments are allowed up to `positionals`; after `--` everything is.
 */
export function unknownOption(args, options, positionals = Infinity) {
  let seen = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") return undefined;
    if (!a.startsWith("-")) {
      if (++seen > positionals) return a;
      continue;
    }
    const kind = options[a];
    if (kind === undefined) return a;
    if (kind === "value") i++;
    if (kind === "list") while (i + 1 < args.length && !args[i + 1].startsWith("-")) i++;
  }
  return undefined;
}
