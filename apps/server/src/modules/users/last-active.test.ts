// "Last Active" in the admin's users list and details is the last sign-in, message or call
// (users.last_active_at, kept with the messages and calls: migration 0016), not the last login.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";

describe("Last Active", () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await adminSession(t)).token;
  });
  afterAll(() => t?.close());

  const listed = async (email: string, query: Record<string, string> = {}) => {
    const body = (
      await call(t, "GET", "/api/admin/users", {
        token: admin,
        query: { search: email, ...query },
      })
    ).json();
    return body.data[0];
  };

  it("follows the sign-in, then a message, then a call; sorts newest first", async () => {
    const idle = await signUp(t);
    const active = await signUp(t);
    const db = t.app.database.db;
    // Both signed in a day ago.
    await db.execute(sql`update users set last_login = now() - interval '1 day'
      where id in (${idle.user.id}, ${active.user.id})`);
    const before = await listed(active.user.email);
    expect(before.lastActive).toBe(before.lastLogin);

    const sent = await call(t, "POST", "/api/chat/message", {
      token: active.token,
      body: { message: "hello" },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const afterMessage = await listed(active.user.email);
    expect(afterMessage.lastLogin).toBe(before.lastLogin);
    expect(Date.parse(afterMessage.lastActive)).toBeGreaterThan(Date.parse(before.lastLogin));

    const callEnd = new Date(Date.now() + 60_000);
    await db.execute(sql`insert into voice_calls (user_id, started_at, ended_at, duration_seconds, credits_per_minute)
      values (${active.user.id}, now(), ${callEnd.toISOString()}::timestamptz, 60, 5)`);
    const afterCall = await listed(active.user.email);
    expect(afterCall.lastActive).toBe(callEnd.toISOString());

    const detail = (
      await call(t, "GET", `/api/admin/users/${active.user.id}`, { token: admin })
    ).json().data;
    expect(detail.lastActive).toBe(callEnd.toISOString());

    const sorted = (
      await call(t, "GET", "/api/admin/users", {
        token: admin,
        query: { sortBy: "lastActive", sortOrder: "-1", limit: "100" },
      })
    ).json();
    const ids: string[] = sorted.data.map((u: { _id: string }) => u._id);
    expect(ids.indexOf(active.user.id)).toBeLessThan(ids.indexOf(idle.user.id));
  });
});
