// Runs in its own process so the load generator does not share the server's event loop.
// The app (offline responder, or the OpenAI SDK against OPENAI_BASE_URL when OPENAI_API_KEY is
// set) and a bare Fastify server: POST /bare, and with a provider POST /bare-stream, a bare relay
// of it. Each records its own time per request (an onResponse hook's reply.elapsedTime), read
// and reset through GET /bench/server-times; the streamed sends' stamps are at the app's GET
// /bench/stream-times. Prints one JSON line { bare, app, users: [{ token, conversationId }],
// csrf: { token, cookie } }, then serves.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config.ts";
import { createOpenAiLlm } from "../../apps/server/src/providers/llm/openai.ts";
import { type BrowserCsrf, browserCsrf, signUpBenchUser } from "../lib/app-api.ts";
import { announceAndServe } from "../lib/spawn-servers.ts";

const USERS = Number(process.env.BENCH_USERS ?? 50);

/** Collects the server's own time of every request to `path`, served at /bench/server-times. */
function timings(path: string) {
  const plugin = async (app: FastifyInstance) => {
    let times: number[] = [];
    app.addHook("onResponse", (request, reply, done) => {
      if (request.url === path) times.push(reply.elapsedTime);
      done();
    });
    app.get("/bench/server-times", async () => {
      const answer = times;
      times = [];
      return { times: answer };
    });
  };
  // What fastify-plugin does: the hook covers the whole app, not only this plugin's scope.
  return Object.assign(plugin, { [Symbol.for("skip-override")]: true });
}

/**
 * Phase 2's view inside this process, on the machine-wide monotonic clock (process.hrtime,
 * comparable across processes): when the provider's answer reached a server (its fetch
 * resolved; headers and first token arrive in one write), and when it wrote the first token
 * event. Requests run one at a time, so one list of each serves both servers. Only the chat
 * completions count: with a key the app also asks the provider's moderation about the fan's
 * message and the reply (the crisis check, issue 25), two more answers per send that carry no
 * token.
 */
const now = () => Number(process.hrtime.bigint()) / 1e6;
let providerAnswered: number[] = [];
let firstTokenWritten: number[] = [];
const providerBase = process.env.OPENAI_BASE_URL;
if (providerBase) {
  const fetchFromProvider = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const response = await fetchFromProvider(input, init);
    const url = String(input instanceof Request ? input.url : input);
    if (url.startsWith(providerBase) && url.endsWith("/chat/completions")) {
      providerAnswered.push(now());
    }
    return response;
  };
}
function stampFirstTokenWrites(app: FastifyInstance, path: string) {
  app.addHook("onRequest", (request, reply, done) => {
    if (request.url !== path) return done();
    const raw = reply.raw;
    const write = raw.write.bind(raw) as (...args: unknown[]) => boolean;
    let seen = false;
    raw.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (!seen && String(chunk).startsWith("event: token")) {
        seen = true;
        firstTokenWritten.push(now());
      }
      return write(chunk, ...rest);
    }) as typeof raw.write;
    done();
  });
}

const bare = Fastify({ logger: false });
await bare.register(timings("/bare"));
bare.post("/bare", async (request) => ({ success: true, data: { echo: request.body } }));
if (providerBase) {
  // The bare relay: the same provider client code as the app, then straight to the client.
  const llm = createOpenAiLlm({ apiKey: "sk-bench-fake-key-0000000000", baseUrl: providerBase });
  stampFirstTokenWrites(bare, "/bare-stream");
  bare.post("/bare-stream", async (request, reply) => {
    const { message } = request.body as { message: string };
    reply.raw.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
    for await (const text of llm.streamChat({
      system: "",
      messages: [{ role: "user", content: message }],
    })) {
      reply.raw.write(`event: token\ndata: ${JSON.stringify({ text })}\n\n`);
    }
    reply.raw.end(`event: done\ndata: {}\n\n`);
    return reply;
  });
}
const bareUrl = await bare.listen({ port: 0, host: "127.0.0.1" });

const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), "twinline-bench-chat-"));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" });
const app = await buildApp({
  config,
  logger: false,
  register: Object.assign(
    async (app: FastifyInstance) => {
      await app.register(timings("/api/chat/message"));
      stampFirstTokenWrites(app, "/api/chat/message");
      app.get("/bench/stream-times", async () => {
        const answer = { providerAnswered, firstTokenWritten };
        providerAnswered = [];
        firstTokenWritten = [];
        return answer;
      });
    },
    { [Symbol.for("skip-override")]: true },
  ),
  // The bench signs its users up from one address.
  authRateLimit: { max: 100_000 },
});
// The bench users would stop at the free-message limit: raise it for this run.
await app.settings.update({ freeMessagesPerDay: 100_000_000 });
const appUrl = await app.listen({ port: 0, host: "127.0.0.1" });

// A CSRF token and cookie, as a browser holds them, and the users, each with a conversation.
const { csrf, headers } = await browserCsrf(app);
const users: Array<{ token: string; conversationId: string }> = [];
for (let i = 0; i < USERS; i++) {
  const { token } = await signUpBenchUser(app, headers, {
    name: `Bench ${i}`,
    email: `bench-${i}-${Date.now()}@example.com`,
  });
  if (i === 0) {
    // Phase 2 times user 0's replies against the provider's answers, one for one; its summary
    // refresh (background provider calls after a reply) would add answers it cannot tell apart,
    // so that fan has memory off. What recall costs is phase 3's figure (long-history.ts).
    const off = await app.inject({
      method: "PATCH",
      url: "/api/memory",
      headers: { ...headers, authorization: `Bearer ${token}` },
      payload: { enabled: false },
    });
    if (off.statusCode !== 200) throw new Error(`bench setup: ${off.statusCode} ${off.body}`);
  }
  const first = await app.inject({
    method: "POST",
    url: "/api/chat/message",
    headers: { ...headers, authorization: `Bearer ${token}` },
    payload: { message: "Hello! Tell me about yourself." },
  });
  if (first.statusCode !== 200) throw new Error(`bench setup: ${first.statusCode} ${first.body}`);
  users.push({ token, conversationId: first.json().data.conversationId as string });
}

export interface ServersSetup {
  bare: string;
  app: string;
  users: Array<{ token: string; conversationId: string }>;
  csrf: BrowserCsrf;
}
const setup: ServersSetup = { bare: bareUrl, app: appUrl, users, csrf };
announceAndServe(setup, () => Promise.all([bare.close(), app.close()]));
