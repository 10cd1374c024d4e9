import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

export type FakeHandler = (
  request: RecordedRequest,
  response: ServerResponse,
  raw: IncomingMessage,
) => void | Promise<void>;

/** A local HTTP server speaking a provider's API (the handler), recording every request. */
export interface FakeHttpServer {
  /** http://127.0.0.1:port */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeHttpServer(handler: FakeHandler): Promise<FakeHttpServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((raw, response) => {
    const chunks: Buffer[] = [];
    raw.on("data", (chunk: Buffer) => chunks.push(chunk));
    raw.on("end", () => {
      const url = new URL(raw.url ?? "/", "http://localhost");
      const recorded: RecordedRequest = {
        method: raw.method ?? "GET",
        path: url.pathname,
        headers: raw.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, response, raw)).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500);
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/**
 * A careless provider's refusal quoting the key it was given, in every way one might: whole,
 * starred (start and last four), and URL-encoded (the echo provider of the secrets tests).
 */
export function echoedKey(key: string): string {
  return (
    `The key ${key} was refused (${key.slice(0, 8)}****${key.slice(-4)}); ` +
    `sent as ${encodeURIComponent(key)}`
  );
}
