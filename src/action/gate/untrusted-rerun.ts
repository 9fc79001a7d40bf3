import type { ActionIo } from "../action-io.js";
import { normalizeLogin } from "../../core/separation/identity.js";
import type { GateReader } from "../../ports/gate-github.js";

/**
 * Why this run, a re-run, may not post a verdict; undefined for a first attempt or a re-run someone
 * who may dispatch the gate by hand asked for. Anyone with write access can re-run a gate run, the
 * pull request's author included: on the same commit it would draw again whatever varies between
 * runs (the reviewer model's answer) and post the newest verdict, with no push that moves the head
 * (and may dismiss a human approval). The runner sets the attempt and who started it
 * (`GITHUB_RUN_ATTEMPT`, `GITHUB_TRIGGERING_ACTOR`); a re-run keeps the first attempt's event, so
 * its `sender` says nothing of who asked.
 */
export async function untrustedRerun(io: ActionIo, github: Pick<GateReader, "permission" | "pull" | "commits">, number: number): Promise<string | undefined> {
  const attempt = (io.env["GITHUB_RUN_ATTEMPT"] ?? "").trim();
  if (attempt === "" || attempt === "1") return undefined;
  const by = (io.env["GITHUB_TRIGGERING_ACTOR"] ?? "").trim();
  const rerun = `this run is attempt ${attempt.slice(0, 10)}, a re-run${by === "" ? "" : ` by ${by.slice(0, 60)}`}`;
  if (by === "") return `${rerun}, and the runner names nobody who started it: nothing is posted, the first attempt's verdict stands`;
  const permission = await github.permission(by);
  if (permission !== "admin" && permission !== "maintain") return `${rerun}, who has ${permission} permission: only an admin or maintainer may have the gate judge a commit again (anyone with write can re-run it); nothing is posted, the first attempt's verdict stands`;
  const pull = await github.pull(number);
  const who = normalizeLogin(by);
  const commits = await github.commits(number);
  const wrote = [pull.author, ...commits.flatMap((c) => [c.author.login, c.committer.login])].some((l) => l !== undefined && l !== null && normalizeLogin(l) === who);
  if (wrote) return `${rerun}, who opened or committed to this pull request: its author may not have it judged again; nothing is posted, the first attempt's verdict stands`;
  return undefined;
}
