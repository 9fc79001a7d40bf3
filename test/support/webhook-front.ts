/**
 * One webhook URL in front of several App replicas, as a load balancer in front of a GitHub App's
 * one webhook URL: GitHub sends each delivery once, so each reaches exactly one replica, round
 * robin over the ones `targets` names now (the live ones). Answers with the replica's answer, or
 * (`detach`) at once, forwarding behind: GitHub sends deliveries concurrently and does not wait for one
 * answer before the next delivery, while the fake sends one at a time and waits for each — and the App
 * answers only once the tick a delivery set off is done, so deliveries would queue behind ticks.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface WebhookFront {
  readonly url: string;
  /** Deliveries forwarded so far. */
  readonly forwarded: number;
  /** Resolves once no forwarded delivery is waiting for its replica's answer. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startWebhookFront(targets: () => readonly string[], options: { readonly detach?: boolean } = {}): Promise<WebhookFront> {
  let next = 0;
  const inFlight = new Set<Promise<unknown>>();
  let forwarded = 0;
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
      forwarded++;
      const forward = fetch(target, { method: "POST", headers, body }).then(async (a) => ({ status: a.status, text: await a.text() }));
      inFlight.add(forward);
      void forward.catch(() => undefined).finally(() => inFlight.delete(forward));
      if (options.detach === true) {
        res.writeHead(202).end();
        return;
      }
      const answer = await forward;
      res.writeHead(answer.status).end(answer.text);
    })().catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(front.address() as AddressInfo).port}/api/github/webhooks`,
    get forwarded() {
      return forwarded;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async close() {
      front.closeAllConnections();
      await new Promise<void>((r) => front.close(() => r()));
    },
  };
}
