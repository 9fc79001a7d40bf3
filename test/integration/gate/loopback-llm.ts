import { createServer } from "node:http";
import type { IncomingHttpHeaders, Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake model server received. */
export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A real HTTP server on 127.0.0.1 that answers with `reply` and records what it was sent. */
export async function loopbackLlm(reply: (req: Received) => { status?: number; json: unknown }): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (b: Buffer) => (body += b.toString()));
    req.on("end", () => {
      const r: Received = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      received.push(r);
      const answer = reply(r);
      res.writeHead(answer.status ?? 200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The Messages API's answer shape around a text. */
export const anthropicAnswer = (text: string, stop = "end_turn") => ({ id: "msg_1", type: "message", role: "assistant", content: [{ type: "text", text }], stop_reason: stop });

/** The chat completions answer shape around a text. */
export const openAiAnswer = (text: string, finish = "stop") => ({ id: "c1", object: "chat.completion", choices: [{ index: 0, finish_reason: finish, message: { role: "assistant", content: text } }] });
