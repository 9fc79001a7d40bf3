#!/usr/bin/env node
// `npm start`: the Probot app server. The compiled code lives in lib/ (built by `npm ci` through
// the prepare script, or `npm run build`); see docs/app.md for the environment.
import { startAppServer } from "../lib/app/server.js";

try {
  await startAppServer(process.env);
} catch (error) {
  console.error(error instanceof Error ? `bosun-app: ${error.message}` : error);
  process.exit(1);
}
