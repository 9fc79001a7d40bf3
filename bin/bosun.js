#!/usr/bin/env node
// The compiled CLI lives in lib/ (built by `npm ci` through the prepare script).
import { main } from "../lib/cli/main.js";

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});
