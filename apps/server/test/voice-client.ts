import type { VoiceServerMessage } from "@twinline/contracts";
import WebSocket from "ws";

export type Received =
  | { kind: "json"; message: VoiceServerMessage }
  | { kind: "audio"; bytes: Buffer };

/** A test's side of a voice call: everything received, in order, and waits on it. */
export interface VoiceClient {
  socket: WebSocket;
  /** Everything but the product's notices (the AI notice, a break reminder) and their audio. */
  received: Received[];
  /** The notices (`notice`, its audio_start, audio and audio_complete), kept apart. */
  noticeTraffic: Received[];
  /** The notices received so far. */
  notices(): Array<Extract<VoiceServerMessage, { type: "notice" }>>;
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
  const noticeTraffic: Received[] = [];
  const noticeReplies = new Set<string>();
  /** A notice's audio is being received (its frames sit between its start and complete). */
  let inNotice = false;
  const takenReceived = new Set<number>();
  const takenNotices = new Set<number>();
  const waiters: Array<() => void> = [];
  socket.on("message", (data, isBinary) => {
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
    const entry: Received = isBinary
      ? { kind: "audio", bytes }
      : { kind: "json", message: JSON.parse(bytes.toString("utf8")) as VoiceServerMessage };
    let ofNotice = entry.kind === "audio" && inNotice;
    if (entry.kind === "json") {
      const message = entry.message;
      if (message.type === "notice") noticeReplies.add(message.replyId);
      if (
        (message.type === "notice" ||
          message.type === "audio_start" ||
          message.type === "audio_complete") &&
        noticeReplies.has(message.replyId)
      ) {
        ofNotice = true;
        if (message.type === "audio_start") inNotice = true;
        if (message.type === "audio_complete") inNotice = false;
      }
    }
    (ofNotice ? noticeTraffic : received).push(entry);
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
    noticeTraffic,
    notices: () =>
      noticeTraffic.flatMap((entry) =>
        entry.kind === "json" && entry.message.type === "notice" ? [entry.message] : [],
      ),
    closed,
    audio: () => received.flatMap((entry) => (entry.kind === "audio" ? [entry.bytes] : [])),
    sendJson: (message) => socket.send(JSON.stringify(message)),
    async next(type, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      // The notices' own messages are looked for among them (the others never hold one).
      const list = type === "notice" ? noticeTraffic : received;
      const taken = type === "notice" ? takenNotices : takenReceived;
      for (;;) {
        const index = list.findIndex(
          (entry, i) => !taken.has(i) && entry.kind === "json" && entry.message.type === type,
        );
        if (index >= 0) {
          taken.add(index);
          const entry = list[index] as { message: VoiceServerMessage };
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
