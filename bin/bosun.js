#!/usr/bin/env node
// The compiled CLI lives in lib/ (built by `npm ci` through the prepare script). Closed pipes and
// the exit status are handled in runCliProcess, the same entry the tests run from source.
import { runCliProcess } from "../lib/cli/run-cli-process.js";

await runCliProcess(process.argv.slice(2));
