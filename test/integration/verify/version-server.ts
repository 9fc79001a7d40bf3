import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Answers request number `n` (0-based); may leave the response open to play a hung server. */
export type VersionHandler = (n: number, req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 with an OS-chosen port. */
export interface VersionServer {
  readonly url: string;
  /** Requests served so far. */
  readonly hits: () => number;
  close(): Promise<void>;
}

/** Starts a loopback server running `handler`; close() also drops hung connections. */
export async function startVersionServer(handler: VersionHandler): Promise<VersionServer> {
  let n = 0;
  const server = createServer((req, res) => handler(n++, req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => n,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON answer `{"version": v}`. */
export function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** A port that was free a moment ago and now refuses connections. */
export async function refusedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
