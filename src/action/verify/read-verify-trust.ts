import type { ActionIo } from "../action-io.js";
import { listInput } from "../list-input.js";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import type { VerifyTrust } from "../../core/verify/untrusted-deployment.js";

/** The configuration in force (`.github/bosun.yml` of the default branch) and what is wrong with it. */
export type ConfigRead = () => Promise<{ readonly config: BosunConfig; readonly problems: readonly { readonly field: string; readonly message: string }[] }>;

/**
 * Whose deployments verify believes and which hosts a deployment's URL may name: inputs `deployers`
 * and `verify-hosts` when set, else `deployers:` and `verify.hosts` of the default branch's
 * `.github/bosun.yml` (read only when an input is missing; a missing file is the defaults). A
 * broken file is an error naming its fields: guessing a looser default would believe more.
 */
export async function readVerifyTrust(io: ActionIo, readConfig: ConfigRead): Promise<{ ok: true; trust: VerifyTrust } | { ok: false; problem: string }> {
  const deployers = listInput(io, "deployers");
  const hosts = listInput(io, "verify-hosts").map((h) => h.toLowerCase());
  if (deployers.length > 0 && hosts.length > 0) return { ok: true, trust: { deployers, hosts } };
  const { config, problems } = await readConfig();
  if (problems.length > 0) return { ok: false, problem: `.github/bosun.yml is invalid:\n${problems.map((p) => `  ${p.field}: ${p.message}`).join("\n")}` };
  return { ok: true, trust: { deployers: deployers.length > 0 ? deployers : config.deployers, hosts: hosts.length > 0 ? hosts : config.verify.hosts } };
}
