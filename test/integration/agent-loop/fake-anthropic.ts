// A loopback HTTP server speaking the Messages API from a script, recording what it received.
import { createServer } from "node:http";
import type { IncomingHttpHeaders, Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: { model: string; max_tokens: number; messages: { role: string; content: Record<string, unknown>[] }[]; tools: { name: string; input_schema: unknown }[] };
}

export interface Answer {
  readonly status?: number;
  readonly body: unknown;
  readonly delayMs?: number;
}

/** A Messages API response body. */
export const message = (stop_reason: string | null, content: unknown[] = [], usage: Record<string, number> = { input_tokens: 10, output_tokens: 5 }) => ({
  id: "msg_test",
  type: "message",
  role: "assistant",
  model: "claude-test",
  content,
  stop_reason,
  stop_sequence: null,
  usage,
});

export const toolUse = (id: string, name: string, input: unknown) => ({ type: "tool_use", id, name, input });

export interface FakeAnthropic {
  readonly baseUrl: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1, port 0; answers call n with script[n] (the last one repeats). */
export async function startFakeAnthropic(script: readonly Answer[]): Promise<FakeAnthropic> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Received["body"] });
      const answer = script[Math.min(received.length - 1, script.length - 1)] ?? { status: 500, body: {} };
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { "content-type": "application/json" });
        res.end(JSON.stringify(answer.body));
      };
      if (answer.delayMs === undefined) send();
      else setTimeout(send, answer.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
