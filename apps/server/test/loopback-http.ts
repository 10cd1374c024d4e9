import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
} from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A reverse proxy as deployments put in front of the app (nginx, Caddy): it forwards every
 * request to `target` and appends the address it sees the client at to X-Forwarded-For.
 */
export async function startForwardingProxy(
  target: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    const seen = incoming.socket.remoteAddress ?? "";
    const prior = incoming.headers["x-forwarded-for"];
    const forwarded = prior ? `${prior}, ${seen}` : seen;
    const proxied = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, "x-forwarded-for": forwarded, host: upstream.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    proxied.on("error", () => {
      outgoing.writeHead(502).end();
    });
    incoming.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { [key: string]: unknown };
}

/**
 * One person's browser on loopback: its own source address (127.0.0.N, so the proxy sees a
 * different client for each), its cookie jar, and the CSRF token the web client sends.
 */
export class Browser {
  private readonly cookies = new Map<string, string>();
  private csrf: string | undefined;

  constructor(
    private readonly baseUrl: string,
    readonly address: string,
  ) {}

  /** A raw request (no CSRF token unless fetched first). */
  send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const url = new URL(path, this.baseUrl);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    return new Promise<Answer>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method,
          path: url.pathname + url.search,
          localAddress: this.address,
          headers: {
            ...(payload ? { "content-type": "application/json" } : {}),
            ...(cookie ? { cookie } : {}),
            ...headers,
          },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () => {
            for (const line of answer.headers["set-cookie"] ?? []) {
              const [pair = ""] = line.split(";");
              const at = pair.indexOf("=");
              this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
            }
            const text = Buffer.concat(chunks).toString("utf8");
            let parsed: Answer["body"] = {};
            try {
              parsed = text ? JSON.parse(text) : {};
            } catch {
              parsed = { text };
            }
            resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: parsed });
          });
        },
      );
      outgoing.on("error", reject);
      outgoing.end(payload);
    });
  }

  /** A request as the web client sends it: the CSRF token in its header. */
  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    if (!this.csrf) {
      const token = await this.send("GET", "/api/csrf-token");
      this.csrf = String(token.body.csrfToken);
    }
    return this.send(method, path, body, { "csrf-token": this.csrf, ...headers });
  }

  /** Forgets the cookies and token (another browser on the same address). */
  clearCookies(): void {
    this.cookies.clear();
    this.csrf = undefined;
  }
}
