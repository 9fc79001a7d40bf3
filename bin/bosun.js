#!/usr/bin/env node
// The compiled CLI lives in lib/ (built by `npm ci` through the prepare script).
import { main } from "../lib/cli/main.js";

// `bosun drain | head` closes our stdout early: that is the reader's choice, not a crash.
process.stdout.on("error", (err) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});
