/**
 * Bosun as a library: the Probot app function and its server, and the pure checks the App runs on
 * briefs and on `.github/bosun.yml`. The CLI is `bin/bosun.js`; the Action is `dist/index.js`.
 */
export { bosunApp, type BosunAppOptions } from "./app/app.js";
export { AppEnvError, startAppServer, type AppEnv, type AppServer } from "./app/server.js";
export type { Brief, BriefProblem, BriefResult } from "./core/brief/brief.js";
export { formatProblems } from "./core/brief/brief.js";
export { briefHash, parseBriefYaml } from "./core/brief/parse-brief.js";
export { parseIssueBody } from "./core/brief/parse-issue-body.js";
export type { BosunConfig } from "./core/config/bosun-config.js";
export { CONFIG_SCHEMA_URL, configJsonSchema } from "./core/config/config-json-schema.js";
export { parseConfig, type ConfigProblem, type ConfigResult } from "./core/config/parse-config.js";
