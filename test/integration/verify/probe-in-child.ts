/**
 * Runs the HTTP probe in its own process, so it can trust a test's self-signed certificate the way
 * Node trusts any extra CA (NODE_EXTRA_CA_CERTS, read at start-up) while using the real global
 * fetch, exactly as `bosun verify` does. Reads a JSON list of probe options on argv[2] and prints
 * one JSON list of outcomes.
 */
import { createHttpProbe } from "../../../src/adapters/http/http-probe.js";
import type { HttpProbeOptions } from "../../../src/adapters/http/http-probe.js";

const probes = JSON.parse(process.argv[2] ?? "[]") as HttpProbeOptions[];
const outcomes = [];
for (const options of probes) outcomes.push(await createHttpProbe(options)(5000));
console.log(JSON.stringify(outcomes));
