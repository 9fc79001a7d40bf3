import { createSign } from "node:crypto";

/**
 * A JSON Web Token that authenticates as a GitHub App (RS256, signed with its private key), as
 * GitHub asks: `iat` 60 s in the past against clock drift, `exp` at most 10 minutes ahead, `iss`
 * the App's id (https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/generating-a-json-web-token-jwt-for-a-github-app).
 */
export function appJwt(appId: number, privateKeyPem: string, nowMs: number): string {
  const now = Math.floor(nowMs / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${part({ alg: "RS256", typ: "JWT" })}.${part({ iat: now - 60, exp: now + 540, iss: String(appId) })}`;
  const signature = createSign("RSA-SHA256").update(unsigned).sign(privateKeyPem).toString("base64url");
  return `${unsigned}.${signature}`;
}
