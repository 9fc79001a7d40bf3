// Runs the `bosun` command from source, as a real process: `node --import tsx test/support/bosun-cli.ts ...`.
import { main } from "../../src/cli/main.js";

process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() });
