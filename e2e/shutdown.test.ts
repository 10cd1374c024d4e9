import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { pdfBomb } from "@twinline/fakes";
import WebSocket from "ws";
import {
  ADMIN_EMAIL,
  ADMIN_ENV,
  ADMIN_PASSWORD,
  FAN_BIRTH_DATE,
  FAN_PASSWORD,
  uniqueFan,
} from "./support/accounts";
import { type RunningServer, startServer } from "./support/server";

// Issue 17 item 9, on the built app as `npm start` runs it (the container runs the same): on
// SIGTERM the instance tells a live caller the spec's restart message, closes the call's record
// before it exits, and exits 0. On the way, a hostile PDF is refused by the PDF thread, which
// the bundle must find beside dist/main.js (issue 17 item 5).

const RESTART_MESSAGE = "The server is restarting. Please call again in a moment.";

let server: RunningServer | undefined;
let reopened: RunningServer | undefined;
let dataDir: string | undefined;

test.afterAll(async () => {
  await reopened?.stop();
  await server?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** API calls as the web client makes them: CSRF header and cookie, Bearer token when given. */
async function api(base: string, method: string, path: string, token?: string, body?: unknown) {
  const csrf = await fetch(`${base}/api/csrf-token`);
  const cookie = (csrf.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const headers: Record<string, string> = { "csrf-token": csrfToken, cookie };
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  return fetch(`${base}${path}`, { method, headers, ...(payload ? { body: payload } : {}) });
}

type Message = { type: string; message?: string; reason?: string; callId?: string };

function openCall(base: string, token: string) {
  const socket = new WebSocket(`${base.replace(/^http/, "ws")}/api/voice-call/ws?token=${token}`);
  const messages: Message[] = [];
  const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
  const started = new Promise<Message>((resolve, reject) => {
    socket.on("message", (data, isBinary) => {
      if (isBinary) return;
      const message = JSON.parse(String(data)) as Message;
      messages.push(message);
      if (message.type === "call_started") resolve(message);
      if (message.type === "error") reject(new Error(message.message));
    });
    socket.on("error", reject);
  });
  return { messages, closed, started };
}

test.describe("a container stop (SIGTERM) with a live call", () => {
  test("refuses a PDF bomb, then tells the caller, closes the call and exits 0", async () => {
    // Our own data directory: the restarted instance reads what the stopped one wrote.
    dataDir = await mkdtemp(join(tmpdir(), "twinline-shutdown-"));
    server = await startServer({ env: ADMIN_ENV, dataDir });
    const base = server.url;

    const admin = await api(base, "POST", "/api/admin/login", undefined, {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    const adminToken = ((await admin.json()) as { token: string }).token;
    const form = new FormData();
    form.append(
      "documents",
      new Blob([new Uint8Array(pdfBomb())], { type: "application/pdf" }),
      "bomb.pdf",
    );
    const bomb = await api(base, "POST", "/api/ai-training/knowledge-documents", adminToken, form);
    expect(bomb.status).toBe(400);
    expect(((await bomb.json()) as { message: string }).message).toMatch(/decompression bomb/);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);

    const fan = uniqueFan("caller");
    const signup = await api(base, "POST", "/api/auth/signup", undefined, {
      ...fan,
      password: FAN_PASSWORD,
      dateOfBirth: FAN_BIRTH_DATE,
    });
    expect(signup.status).toBe(201);
    const token = ((await signup.json()) as { token: string }).token;
    const live = openCall(base, token);
    const started = await live.started;

    const exitCode = await server.stop();
    expect(await live.closed).toBe(1012);
    expect(live.messages.at(-1)).toEqual({
      type: "call_ended",
      message: RESTART_MESSAGE,
      reason: "server",
    });
    expect(exitCode).toBe(0);

    // The record was closed by the stopping instance (well within its first minute), not left
    // for the next boot's sweep, which would close it at the end of the paid minute.
    reopened = await startServer({ dataDir, env: ADMIN_ENV });
    const history = await api(reopened.url, "GET", "/api/voice-call/history", token);
    const { calls } = (await history.json()) as {
      calls: { _id: string; endTime: string | null; duration: number }[];
    };
    expect(calls).toHaveLength(1);
    expect(calls[0]?._id).toBe(started.callId);
    expect(calls[0]?.endTime).not.toBeNull();
    expect(calls[0]?.duration).toBeLessThan(60);
  });
});
