import type { VoiceServerMessage } from "@twinline/contracts";
import WebSocket from "ws";

export type Received =
  | { kind: "json"; message: VoiceServerMessage }
  | { kind: "audio"; bytes: Buffer };

/** A test's side of a voice call: everything received, in order, and waits on it. */
export interface VoiceClient {
  socket: WebSocket;
  received: Received[];
  /** The next JSON message of this type not yet taken (waits for it). */
  next<T extends VoiceServerMessage["type"]>(
    type: T,
    timeoutMs?: number,
  ): Promise<Extract<VoiceServerMessage, { type: T }>>;
  /** The audio frames received so far. */
  audio(): Buffer[];
  /** Resolves with the close code. */
  closed: Promise<number>;
  sendJson(message: object): void;
}

export async function connectVoice(
  origin: string,
  token: string | undefined,
  /** More of the query: `resume` (a reconnection). */
  query: Record<string, string> = {},
): Promise<VoiceClient> {
  const url = new URL("/api/voice-call/ws", origin.replace(/^http/, "ws"));
  if (token !== undefined) url.searchParams.set("token", token);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const socket = new WebSocket(url);
  const received: Received[] = [];
  const taken = new Set<number>();
  const waiters: Array<() => void> = [];
  socket.on("message", (data, isBinary) => {
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
    received.push(
      isBinary
        ? { kind: "audio", bytes }
        : { kind: "json", message: JSON.parse(bytes.toString("utf8")) as VoiceServerMessage },
    );
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return {
    socket,
    received,
    closed,
    audio: () => received.flatMap((entry) => (entry.kind === "audio" ? [entry.bytes] : [])),
    sendJson: (message) => socket.send(JSON.stringify(message)),
    async next(type, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = received.findIndex(
          (entry, i) => !taken.has(i) && entry.kind === "json" && entry.message.type === type,
        );
        if (index >= 0) {
          taken.add(index);
          const entry = received[index] as { message: VoiceServerMessage };
          return entry.message as never;
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          const seen = received.map((entry) =>
            entry.kind === "json" ? entry.message.type : "audio",
          );
          throw new Error(
            `No ${type} message within ${timeoutMs} ms; received: ${seen.join(", ")}`,
          );
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
  };
}
