import { afterEach, describe, expect, it } from "vitest";
import { gateWorld, REPO, RUNNER_TOKEN } from "./gate-world.js";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
// actions/checkout (persist-credentials: true) writes this header into the checkout's git config.
const HEADER = `AUTHORIZATION: basic ${b64(`x-access-token:${RUNNER_TOKEN}`)}`;
const FORMS = [RUNNER_TOKEN, b64(`x-access-token:${RUNNER_TOKEN}`).replace(/=+$/, ""), b64(RUNNER_TOKEN).replace(/=+$/, ""), encodeURIComponent(`${RUNNER_TOKEN}/`)];

let world: Awaited<ReturnType<typeof gateWorld>> | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("the runner's token in any form never leaves the gate step", () => {
  it("PR code that prints the checkout's credentials: no form of the token in the check run, the summary, the outputs or the failure", async () => {
    // The command stands for PR code (a test, an install hook) that dumps what it can read.
    world = await gateWorld({ command: () => "git config --list; echo \"url https://x-access-token:$(cat .tokenurl)@github.com\"; base64 -w0 .token; echo; exit 1" });
    world.checkout.git("config", "http.https://github.com/.extraheader", HEADER);
    world.checkout.write(".token", RUNNER_TOKEN).write(".tokenurl", encodeURIComponent(`${RUNNER_TOKEN}/`));
    const io = await world.run({}, { PATH: process.env["PATH"], HOME: world.scratch });
    const runs = [...world.fake.repo(REPO).checkRuns.values()];
    expect(runs).toHaveLength(1);
    // The evidence is there (the command ran and printed), masked.
    const published = JSON.stringify(runs);
    expect(published).toContain("extraheader");
    const written = [published, ...io.summaries, ...Object.values(io.outputs), ...io.failures, ...io.logs];
    for (const text of written) for (const form of FORMS) expect(text).not.toContain(form);
  });
});
