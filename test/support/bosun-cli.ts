// Runs the `bosun` command from source, as a real process: `node --import tsx test/support/bosun-cli.ts ...`.
// The same entry as bin/bosun.js, so closed pipes and exit statuses behave as they do installed.
import { runCliProcess } from "../../src/cli/run-cli-process.js";

await runCliProcess(process.argv.slice(2));
