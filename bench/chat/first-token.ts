// Phase 2 of bench/chat: how long the first token takes from the provider to the client, through
// the app's POST /api/chat/message and, in the same run, through a bare relay (a bare Fastify
// route streaming the same provider with the same OpenAI client code, no auth, no database). The
// two are sent in turn, so they meet the same machine. Every stamp is on the machine-wide
// monotonic clock: the provider's write and the client's read here, and inside the server
// process when the provider's answer reached it and when it wrote the first token event.

import { monotonicNow, startFakeOpenAi } from "@twinline/fakes";
import { spawnServers } from "../lib/spawn-servers.ts";
import type { ServersSetup } from "./servers.ts";

export interface FirstTokenLegs {
  /** Provider writes its first token -> the client reads the first token event. */
  total: number;
  /** Provider writes -> the server holds the answer (loopback, the server's wake-up, HTTP). */
  wayIn: number;
  /** The server holds the answer -> it writes the first token event. */
  server: number;
  /** The server writes -> the client reads (loopback). */
  wayOut: number;
}

const WARM_UP = 20;

/** One streamed request: when its first token event arrived, after reading it to the end. */
async function firstTokenArrival(url: string, headers: Record<string, string>, body: object) {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...headers, accept: "text/event-stream", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const reader = response.body?.getReader();
  if (!reader) throw new Error(`${url}: no body`);
  const decoder = new TextDecoder();
  let text = "";
  let arrivedAt = Number.NaN;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (Number.isNaN(arrivedAt) && text.includes("event: token")) arrivedAt = monotonicNow();
  }
  if (!text.includes("event: done"))
    throw new Error(`${url}: no done event: ${text.slice(0, 200)}`);
  return arrivedAt;
}

export async function measureFirstToken(script: string, runs: number) {
  // A short reply streamed at once; the provider notes when it wrote the first piece.
  const provider = await startFakeOpenAi({
    validKey: "any",
    reply: ["Hello", " there,", " nice", " to", " meet", " you."],
  });
  const servers = await spawnServers<ServersSetup>(script, {
    OPENAI_API_KEY: "sk-bench-fake-key-0000000000",
    OPENAI_BASE_URL: provider.baseUrl,
    BENCH_USERS: "1",
  });
  const legs = { bare: [] as FirstTokenLegs[], app: [] as FirstTokenLegs[] };
  try {
    const { app, bare, users, csrf } = servers.urls;
    const user = users[0];
    if (!user) throw new Error("no bench user");
    const targets = {
      bare: { url: `${bare}/bare-stream`, headers: {}, body: { message: "How are you?" } },
      app: {
        url: `${app}/api/chat/message`,
        headers: {
          authorization: `Bearer ${user.token}`,
          "csrf-token": csrf.token,
          cookie: `_csrf=${csrf.cookie}`,
        },
        body: { message: "How are you?", conversationId: user.conversationId },
      },
    };
    const serverStamps = async () =>
      (await (await fetch(`${app}/bench/stream-times`)).json()) as {
        providerAnswered: number[];
        firstTokenWritten: number[];
      };
    const client: Array<{ target: "bare" | "app"; provided: number; arrived: number }> = [];
    for (let i = 0; i < WARM_UP + runs; i++) {
      if (i === WARM_UP) await serverStamps();
      for (const target of ["bare", "app"] as const) {
        const { url, headers, body } = targets[target];
        const arrived = await firstTokenArrival(url, headers, body);
        if (i >= WARM_UP) client.push({ target, provided: provider.firstTokenAt(), arrived });
      }
    }
    const inside = await serverStamps();
    if (
      inside.providerAnswered.length !== client.length ||
      inside.firstTokenWritten.length !== client.length
    ) {
      throw new Error(
        `The server's stamps do not match the requests: ${inside.providerAnswered.length} answered, ${inside.firstTokenWritten.length} written, ${client.length} sent`,
      );
    }
    client.forEach(({ target, provided, arrived }, i) => {
      const answered = inside.providerAnswered[i] ?? Number.NaN;
      const written = inside.firstTokenWritten[i] ?? Number.NaN;
      legs[target].push({
        total: arrived - provided,
        wayIn: answered - provided,
        server: written - answered,
        wayOut: arrived - written,
      });
    });
  } finally {
    await servers.stop();
    await provider.close();
  }
  return legs;
}
