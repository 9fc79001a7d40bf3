import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * GitHub caps a webhook payload at 25 MB and delivers nothing larger
 * (https://docs.github.com/en/webhooks/webhook-events-and-payloads#payload-cap): a longer body is
 * not GitHub's, and is refused before it is buffered.
 */
export const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;

/**
 * Reads a webhook delivery's body within MAX_WEBHOOK_BYTES and checks its signature
 * (`X-Hub-Signature-256`, HMAC-SHA256 of the body with the webhook secret,
 * https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries) before anything
 * else sees it. Anyone who can reach the URL can send one: a refusal is answered here, logged
 * in one line that names the delivery and never quotes the body, and the body is dropped.
 * Resolves to the body when the delivery may go on to the webhook handlers.
 */
export async function guardWebhookRequest(req: IncomingMessage, res: ServerResponse, secret: string, warn: (line: string) => void): Promise<string | undefined> {
  const delivery = headerText(req.headers["x-github-delivery"]);
  const refuse = (status: number, why: string): undefined => {
    warn(`webhook delivery ${delivery} refused (${status}): ${why}`);
    // The rest of an over-long body is not read: the connection goes once the answer is out.
    res.writeHead(status, { "content-type": "text/plain", connection: "close" }).end(`${why}\n`, () => req.socket.destroy());
    return undefined;
  };
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > MAX_WEBHOOK_BYTES) return refuse(413, `the body is ${declared} bytes; GitHub sends at most ${MAX_WEBHOOK_BYTES}`);
  const chunks: Buffer[] = [];
  let size = 0;
  const read = await new Promise<"ok" | "over" | "error">((resolve) => {
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_WEBHOOK_BYTES) {
        req.pause();
        req.removeAllListeners("data");
        chunks.length = 0;
        resolve("over");
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve("ok"));
    req.on("error", () => resolve("error"));
  });
  if (read === "over") return refuse(413, `the body is more than ${MAX_WEBHOOK_BYTES} bytes; GitHub sends at most that`);
  if (read === "error") {
    req.socket.destroy();
    return undefined;
  }
  const body = Buffer.concat(chunks);
  const signature = headerText(req.headers["x-hub-signature-256"]);
  if (signature === "(none)") return refuse(400, "no X-Hub-Signature-256 header");
  const expected = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) return refuse(401, "the signature does not match the webhook secret (check WEBHOOK_SECRET)");
  return body.toString("utf8");
}

/** A header's value for a log line: short, and never more than one line. */
function headerText(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? value.join(",") : value;
  if (text === undefined || text === "") return "(none)";
  return text.length > 100 || /[^\x20-\x7e]/.test(text) ? JSON.stringify(text.slice(0, 100)) : text;
}
