import { CHAT_LOGS_CSV_HEADER, chatLogsResponseSchema, csvLine } from "@twinline/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { conversations } from "../../db/schema/index.ts";
import { createChatRepository } from "./repository.ts";

describe("admin chat logs: real conversations, searched, filtered, sorted, paged, exported", () => {
  let t: TestApp;
  let adminToken: string;
  let userToken: string;
  const ids: Record<string, string> = {};

  /** A conversation of `userId` started at `start`, lasting `seconds`, with `count` messages. */
  async function conversation(
    key: string,
    userId: string,
    start: string,
    seconds: number,
    count: number,
  ) {
    const repository = createChatRepository(t.app.database.db);
    const first = await repository.startConversation(userId, key, `${key} 1`);
    for (let i = 2; i <= count; i++) {
      await repository.addMessage(
        first.conversationId,
        userId,
        i % 2 ? "user" : "ai",
        `${key} ${i}`,
      );
    }
    const startedAt = new Date(start);
    await t.app.database.db
      .update(conversations)
      .set({ startedAt, lastMessageAt: new Date(startedAt.getTime() + seconds * 1000) })
      .where(eq(conversations.id, first.conversationId));
    ids[key] = first.conversationId;
  }

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.settings.update({ aiProfile: { name: "Nova Star" } as never });
    adminToken = (await adminSession(t)).token;
    const amber = await signUp(t, { name: "Amber Field", email: "amber.field@example.com" });
    const other = await signUp(t, { name: '=HYPERLINK("x")', email: "formula@Example.org" });
    const carol = await signUp(t, { name: 'Carol "CJ", Jr', email: "carol@example.net" });
    userToken = amber.token;
    await conversation("a1", amber.user.id, "2025-03-01T10:00:00Z", 120, 4);
    await conversation("a2", amber.user.id, "2025-03-03T23:59:59Z", 30, 2);
    await conversation("b1", other.user.id, "2025-03-02T08:00:00Z", 600, 6);
    await conversation("c1", carol.user.id, "2025-03-04T00:00:00Z", 5, 1);
  });
  afterAll(() => t?.close());

  const list = async (query: Record<string, string> = {}) => {
    const response = await call(t, "GET", "/api/admin/chat-logs", { token: adminToken, query });
    expect(response.statusCode, response.body).toBe(200);
    return chatLogsResponseSchema.parse(response.json());
  };
  const keysOf = (body: { data: Array<{ _id: string }> }) =>
    body.data.map((log) => Object.keys(ids).find((key) => ids[key] === log._id));

  it("lists conversations newest first with user, character, duration, messages and plan", async () => {
    const body = await list();
    expect(keysOf(body)).toEqual(["c1", "a2", "b1", "a1"]);
    expect(body.pagination).toEqual({ total: 4, page: 1, limit: 10, pages: 1 });
    expect(body.data[3]).toEqual({
      _id: ids.a1,
      user: expect.objectContaining({ name: "Amber Field", email: "amber.field@example.com" }),
      character: "Nova Star",
      startTime: "2025-03-01T10:00:00.000Z",
      lastMessageAt: "2025-03-01T10:02:00.000Z",
      duration: 120,
      messageCount: 4,
      plan: "standard",
      calls: 0,
      flagged: 0,
    });
  });

  it("pages and sorts by each column, both ways", async () => {
    const first = await list({ limit: "3" });
    const second = await list({ limit: "3", page: "2" });
    expect(first.pagination).toEqual({ total: 4, page: 1, limit: 3, pages: 2 });
    expect([...keysOf(first), ...keysOf(second)]).toEqual(["c1", "a2", "b1", "a1"]);
    expect(keysOf(await list({ sortBy: "startTime", sortOrder: "1" }))).toEqual([
      "a1",
      "b1",
      "a2",
      "c1",
    ]);
    expect(keysOf(await list({ sortBy: "messageCount", sortOrder: "-1" }))).toEqual([
      "b1",
      "a1",
      "a2",
      "c1",
    ]);
    expect(keysOf(await list({ sortBy: "duration", sortOrder: "1" }))).toEqual([
      "c1",
      "a2",
      "a1",
      "b1",
    ]);
    expect(keysOf(await list({ sortBy: "lastMessageAt", sortOrder: "-1" }))[0]).toBe("a2");
  });

  it("searches user name and e-mail case-insensitively", async () => {
    expect(keysOf(await list({ search: "FIELD" }))).toEqual(["a2", "a1"]);
    expect(keysOf(await list({ search: "example.ORG" }))).toEqual(["b1"]);
    expect(keysOf(await list({ search: "%" }))).toEqual([]);
    expect((await list({ search: "nobody" })).pagination.total).toBe(0);
  });

  it("filters by plan (no subscriptions yet: all standard) and by whole UTC days", async () => {
    expect((await list({ plan: "premium" })).data).toEqual([]);
    expect((await list({ plan: "standard" })).pagination.total).toBe(4);
    expect(keysOf(await list({ startDate: "2025-03-02", endDate: "2025-03-03" }))).toEqual([
      "a2",
      "b1",
    ]);
    expect(keysOf(await list({ startDate: "2025-03-04" }))).toEqual(["c1"]);
    expect(keysOf(await list({ endDate: "2025-03-01" }))).toEqual(["a1"]);
    const bad = await call(t, "GET", "/api/admin/chat-logs", {
      token: adminToken,
      query: { startDate: "yesterday" },
    });
    expect(bad.statusCode).toBe(400);
  });

  it("answers one conversation's messages, paged; 404 unknown, 400 malformed", async () => {
    const url = `/api/admin/chat-logs/${ids.b1}/messages`;
    const page = await call(t, "GET", url, { token: adminToken, query: { limit: "4" } });
    expect(page.statusCode).toBe(200);
    expect(page.json().data.messages.map((m: { content: string }) => m.content)).toEqual([
      "b1 3",
      "b1 4",
      "b1 5",
      "b1 6",
    ]);
    expect(page.json().data.pagination).toEqual({ total: 6, page: 1, limit: 4, pages: 2 });
    const unknown = await call(
      t,
      "GET",
      "/api/admin/chat-logs/00000000-0000-4000-8000-000000000000/messages",
      { token: adminToken },
    );
    expect(unknown.statusCode).toBe(404);
    const malformed = await call(t, "GET", "/api/admin/chat-logs/123/messages", {
      token: adminToken,
    });
    expect(malformed.statusCode).toBe(400);
  });

  it("exports every matching row as CSV, escaped and safe from formulas", async () => {
    const response = await call(t, "GET", "/api/admin/chat-logs/export", {
      token: adminToken,
      query: { sortBy: "startTime", sortOrder: "1" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/csv/);
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="chat-logs-${today}.csv"`,
    );
    // A BOM first, as every CSV the server answers (lib/csv-download.ts): spreadsheets read UTF-8.
    expect(response.body.startsWith("\uFEFF")).toBe(true);
    const lines = response.body.slice(1).split("\r\n");
    // The project's one cell rule (contracts/csv.ts): every cell quoted, N/A for no transcript.
    expect(lines[0]).toBe(csvLine(CHAT_LOGS_CSV_HEADER));
    expect(lines.slice(1)).toEqual([
      `"2025-03-01T10:00:00.000Z","Amber Field","amber.field@example.com","Nova Star","120","4","standard","0","N/A"`,
      `"2025-03-02T08:00:00.000Z","'=HYPERLINK(""x"")","formula@example.org","Nova Star","600","6","standard","0","N/A"`,
      `"2025-03-03T23:59:59.000Z","Amber Field","amber.field@example.com","Nova Star","30","2","standard","0","N/A"`,
      `"2025-03-04T00:00:00.000Z","Carol ""CJ"", Jr","carol@example.net","Nova Star","5","1","standard","0","N/A"`,
      "",
    ]);

    const filtered = await call(t, "GET", "/api/admin/chat-logs/export", {
      token: adminToken,
      query: { search: "field", page: "2", limit: "1" },
    });
    expect(filtered.body.split("\r\n").filter(Boolean)).toHaveLength(3);
  });

  it("is the admin's only: no token 401, a user's token 403", async () => {
    for (const url of [
      "/api/admin/chat-logs",
      "/api/admin/chat-logs/export",
      `/api/admin/chat-logs/${ids.a1}/messages`,
    ]) {
      expect((await call(t, "GET", url)).statusCode).toBe(401);
      expect((await call(t, "GET", url, { token: userToken })).statusCode).toBe(403);
    }
  });
});
