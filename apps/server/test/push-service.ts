import type { Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";

// A real local push service for tests: the npm package web-push-testing (its own Express
// server and model, run in this process), which creates subscriptions, checks each push's
// VAPID token and decrypts it, and answers 410 for a subscription it was told expired.

const require = createRequire(import.meta.url);
const TestingServer = require("web-push-testing/src/server.js") as new (
  model: unknown,
  port: number,
) => { setRequestHandlers(): void; _app: { listen(port: number, ready: () => void): Server } };
const { PushApiModel } = require("web-push-testing/src/PushApiModel.js") as {
  PushApiModel: new () => { notifyUrl: string };
};

export interface TestPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}

export interface LocalPushService {
  /** Its origin (http://localhost:PORT): the app is told to accept it (WEB_PUSH_HTTP_ORIGIN). */
  origin: string;
  /** A browser's subscription for the app's VAPID public key. */
  subscribe(applicationServerKey: string): Promise<TestPushSubscription>;
  /** The decrypted payloads received for a subscription, oldest first. */
  received(clientHash: string): Promise<string[]>;
  /** From now on, pushes to this subscription are answered 410 Gone. */
  expire(clientHash: string): Promise<void>;
  close(): Promise<void>;
}

export async function startLocalPushService(): Promise<LocalPushService> {
  const model = new PushApiModel();
  const server = new TestingServer(model, 0);
  server.setRequestHandlers();
  const listening = await new Promise<Server>((resolve) => {
    const http = server._app.listen(0, () => resolve(http));
  });
  const { port } = listening.address() as AddressInfo;
  const origin = `http://localhost:${port}`;
  model.notifyUrl = `${origin}/notify/`;
  const post = async (path: string, body: object) => {
    const response = await fetch(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.status === 200 && response.headers.get("content-type")?.includes("json")
      ? ((await response.json()) as { data: unknown })
      : { data: null };
  };
  return {
    origin,
    async subscribe(applicationServerKey) {
      return (await post("/subscribe", { applicationServerKey })).data as TestPushSubscription;
    },
    async received(clientHash) {
      return ((await post("/get-notifications", { clientHash })).data as { messages: string[] })
        .messages;
    },
    async expire(clientHash) {
      await post(`/expire-subscription/${clientHash}`, {});
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        listening.closeAllConnections();
        listening.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
