/**
 * One webhook URL in front of several App replicas, as a load balancer in front of a GitHub App's
 * one webhook URL: GitHub sends each delivery once, so each reaches exactly one replica, round
 * robin over the ones `targets` names now (the live ones). Answers with the replica's answer.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface WebhookFront {
  readonly url: string;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startWebhookFront(targets: () => readonly string[]): Promise<WebhookFront> {
  let next = 0;
  const front = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const live = targets();
      const target = live[next++ % Math.max(1, live.length)];
      if (target === undefined) {
        res.writeHead(502).end();
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "content-length") headers[k] = v;
      const answer = await fetch(target, { method: "POST", headers, body });
      res.writeHead(answer.status).end(await answer.text());
    })().catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(front.address() as AddressInfo).port}/api/github/webhooks`,
    async close() {
      front.closeAllConnections();
      await new Promise<void>((r) => front.close(() => r()));
    },
  };
}
