/**
 * `actions/create-github-app-token`: an installation token of the App, from the fake over HTTP as
 * the action gets it — a JWT signed with `private-key` whose `iss` is `client-id` (or `app-id`),
 * the App's installation on the repository, then `POST /app/installations/{id}/access_tokens` with
 * the `permission-*` inputs (`permission-pull-requests: write` → `pull_requests: write`). Outputs
 * `token` (masked), `installation-id` and `app-slug`.
 */
import { createSign } from "node:crypto";
import { apiGet, failed, type StepContext, type StepOutcome } from "./step-context.js";

function jwt(issuer: string, privateKey: string, nowSeconds: number): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const data = `${part({ alg: "RS256", typ: "JWT" })}.${part({ iat: nowSeconds - 60, exp: nowSeconds + 540, iss: issuer })}`;
  const signature = createSign("RSA-SHA256").update(data).sign(privateKey).toString("base64url");
  return `${data}.${signature}`;
}

export async function createAppTokenStep(ctx: StepContext): Promise<StepOutcome> {
  const issuer = ctx.inputs["client-id"] || ctx.inputs["app-id"] || "";
  const key = ctx.inputs["private-key"] ?? "";
  if (issuer === "") return failed("actions/create-github-app-token: Input required and not supplied: client-id");
  if (key === "") return failed("actions/create-github-app-token: Input required and not supplied: private-key");
  let bearer: string;
  try {
    bearer = jwt(issuer, key, Math.floor(Date.now() / 1000));
  } catch (err) {
    return failed(`actions/create-github-app-token: the private key does not sign: ${err instanceof Error ? err.message : String(err)}`);
  }
  const owner = ctx.inputs["owner"] || ctx.run.repo.owner;
  const repoName = (ctx.inputs["repositories"] || ctx.run.repo.name).split(/[\s,]+/)[0] ?? ctx.run.repo.name;
  const fake = ctx.runtime.options.fake;
  const found = await fetch(`${fake.url}/repos/${owner}/${repoName}/installation`, { headers: { authorization: `Bearer ${bearer}` } });
  const installation = (await found.json()) as { id?: number; app_slug?: string; message?: string };
  if (found.status !== 200 || installation.id === undefined) return failed(`actions/create-github-app-token: no installation of the app on ${owner}/${repoName}: ${found.status} ${installation.message ?? ""}`);
  const permissions = Object.fromEntries(
    Object.entries(ctx.inputs)
      .filter(([k]) => k.startsWith("permission-"))
      .map(([k, v]) => [k.slice("permission-".length).replace(/-/g, "_"), v]),
  );
  const minted = await fetch(`${fake.url}/app/installations/${installation.id}/access_tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    body: JSON.stringify(Object.keys(permissions).length === 0 ? {} : { permissions }),
  });
  const body = (await minted.json()) as { token?: string; message?: string };
  if (minted.status !== 201 || body.token === undefined) return failed(`actions/create-github-app-token: ${minted.status} ${body.message ?? ""}`);
  ctx.addMask(body.token);
  // The slug the action reports comes from the app (`GET /app`), as the action reads it.
  const app = await apiGet(ctx, "/app", bearer);
  const slug = typeof app.body["slug"] === "string" ? app.body["slug"] : (installation.app_slug ?? "");
  ctx.log(`minted an installation token of ${slug} with ${JSON.stringify(permissions)}`);
  return { ok: true, outputs: { token: body.token, "installation-id": String(installation.id), "app-slug": slug } };
}
