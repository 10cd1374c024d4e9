import {
  AUTH_MESSAGES,
  adminUserDetailResponseSchema,
  adminUsersResponseSchema,
  userStatusResponseSchema,
} from "@twinline/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, PASSWORD, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { users } from "../../db/schema/index.ts";
import { ADMIN_MESSAGES } from "./service.ts";

describe("admin: login, token, profile, password", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("logs an admin in and records lastLogin; a user account gets the plain 401", async () => {
    const admin = await adminSession(t);
    const [row] = await t.app.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(row?.lastLogin).toBeInstanceOf(Date);

    const { user } = await signUp(t);
    const asUser = await call(t, "POST", "/api/admin/login", {
      body: { email: user.email, password: PASSWORD },
    });
    const wrong = await call(t, "POST", "/api/admin/login", {
      body: { email: admin.email, password: "wrong password" },
    });
    for (const response of [asUser, wrong]) {
      expect(response.statusCode).toBe(401);
      expect(messageOf(response)).toBe(AUTH_MESSAGES.invalidCredentials);
    }
  });

  it("verify-token and profile answer the admin", async () => {
    const admin = await adminSession(t);
    const verify = await call(t, "GET", "/api/admin/verify-token", { token: admin.token });
    expect(verify.json()).toEqual({
      success: true,
      valid: true,
      admin: { _id: admin.id, id: admin.id, name: "Admin", email: admin.email, role: "admin" },
    });
    const profile = await call(t, "GET", "/api/admin/profile", { token: admin.token });
    expect(profile.json()).toMatchObject({ success: true, data: { id: admin.id, role: "admin" } });
  });

  it("change-password: the admin-side rules, 400 for a wrong current password, a fresh token", async () => {
    const admin = await adminSession(t);
    const url = "/api/admin/change-password";
    const empty = await call(t, "PUT", url, {
      token: admin.token,
      body: { currentPassword: "", newPassword: "abcdef" },
    });
    expect(empty.statusCode).toBe(400);
    expect(messageOf(empty)).toBe("currentPassword: All fields are required");

    const short = await call(t, "PUT", url, {
      token: admin.token,
      body: { currentPassword: admin.password, newPassword: "abcde" },
    });
    expect(short.statusCode).toBe(400);
    expect(messageOf(short)).toBe(`newPassword: ${AUTH_MESSAGES.adminPasswordTooShort}`);

    const wrong = await call(t, "PUT", url, {
      token: admin.token,
      body: { currentPassword: "not the one", newPassword: "abcdef" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(messageOf(wrong)).toBe(AUTH_MESSAGES.wrongCurrentPassword);

    const done = await call(t, "PUT", url, {
      token: admin.token,
      body: { currentPassword: admin.password, newPassword: "abcdef" },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ success: true, message: ADMIN_MESSAGES.passwordChanged });
    const old = await call(t, "GET", "/api/admin/verify-token", { token: admin.token });
    expect(old.statusCode).toBe(401);
    const fresh = await call(t, "GET", "/api/admin/verify-token", { token: done.json().token });
    expect(fresh.statusCode).toBe(200);
  });
});

describe("admin: users list, details, status, metrics", () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof adminSession>>;
  const seeded: Array<{ id: string; name: string; email: string }> = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminSession(t, { email: "zz-admin@example.com" });
    const names = ["Cedar Grove", "amber Field", "Birch Lane", "delta_underscore", "Echo 100%"];
    for (const [i, name] of names.entries()) {
      const { user } = await signUp(t, {
        name,
        email: `${name.split(" ")[0]?.toLowerCase()}${i}@list.test`,
      });
      seeded.push({ id: user.id, name, email: user.email });
    }
    // Spread the sign-up times and credits so each sort is visible.
    for (const [i, user] of seeded.entries()) {
      await t.app.database.db
        .update(users)
        .set({
          createdAt: sql`now() - make_interval(days => ${i + 1})`,
          credits: 10 * (i + 1),
          lastLogin: i === 2 ? null : sql`now() - make_interval(hours => ${i})`,
        })
        .where(eq(users.id, user.id));
    }
  });
  afterAll(() => t?.close());

  const list = async (query: Record<string, string> = {}) => {
    const response = await call(t, "GET", "/api/admin/users", { token: admin.token, query });
    expect(response.statusCode, response.body).toBe(200);
    return adminUsersResponseSchema.parse(response.json());
  };
  const namesOf = (body: { data: Array<{ name: string }> }) => body.data.map((u) => u.name);

  it("pages of 10 by default, newest first; the admin is not one of the users", async () => {
    const body = await list();
    expect(body.pagination).toEqual({ total: 5, page: 1, limit: 10, pages: 1 });
    expect(namesOf(body).slice(0, 2)).toEqual(["Cedar Grove", "amber Field"]);
    expect(body.data.every((u) => u.role === "user")).toBe(true);
    const page2 = await list({ limit: "2", page: "2" });
    expect(page2.pagination).toEqual({ total: 5, page: 2, limit: 2, pages: 3 });
    expect(namesOf(page2)).toEqual(["Birch Lane", "delta_underscore"]);
    expect((await list({ search: "admin" })).pagination.total).toBe(0);
  });

  it("sorts by name case-insensitively, e-mail, credits, lastLogin (never last) and createdAt", async () => {
    expect(namesOf(await list({ sortBy: "name", sortOrder: "1" }))).toEqual([
      "amber Field",
      "Birch Lane",
      "Cedar Grove",
      "delta_underscore",
      "Echo 100%",
    ]);
    expect(namesOf(await list({ sortBy: "credits", sortOrder: "-1" })).slice(0, 2)).toEqual([
      "Echo 100%",
      "delta_underscore",
    ]);
    const byLogin = namesOf(await list({ sortBy: "lastLogin", sortOrder: "1" }));
    expect(byLogin.at(-1)).toBe("Birch Lane");
    const byLoginDesc = namesOf(await list({ sortBy: "lastLogin", sortOrder: "-1" }));
    expect(byLoginDesc.at(-1)).toBe("Birch Lane");
    expect(namesOf(await list({ sortBy: "email", sortOrder: "1" }))[0]).toBe("amber Field");
    expect(namesOf(await list({ sortBy: "createdAt", sortOrder: "1" }))[0]).toBe("Echo 100%");
  });

  it("searches name and e-mail without case, taking % and _ literally", async () => {
    expect(namesOf(await list({ search: "FIELD" }))).toEqual(["amber Field"]);
    expect(namesOf(await list({ search: "birch2@LIST" }))).toEqual(["Birch Lane"]);
    expect(namesOf(await list({ search: "100%" }))).toEqual(["Echo 100%"]);
    expect(namesOf(await list({ search: "_" }))).toEqual(["delta_underscore"]);
    const none = await list({ search: "nobody-here" });
    expect(none.data).toEqual([]);
    expect(none.pagination).toEqual({ total: 0, page: 1, limit: 10, pages: 0 });
  });

  it("filters by status, and refuses a bad query with 400 naming the field", async () => {
    const target = seeded[1];
    if (!target) throw new Error("seed");
    await call(t, "PUT", `/api/admin/users/${target.id}/status`, {
      token: admin.token,
      body: { action: "deactivate" },
    });
    const inactive = await list({ status: "inactive" });
    expect(namesOf(inactive)).toEqual([target.name]);
    expect(inactive.data[0]?.isActive).toBe(false);
    expect((await list({ status: "active" })).pagination.total).toBe(4);
    await call(t, "PUT", `/api/admin/users/${target.id}/status`, {
      token: admin.token,
      body: { action: "activate" },
    });

    for (const [query, field] of [
      [{ sortOrder: "2" }, "sortOrder"],
      [{ sortBy: "password" }, "sortBy"],
      [{ status: "gone" }, "status"],
      [{ page: "0" }, "page"],
      [{ limit: "abc" }, "limit"],
    ] as const) {
      const response = await call(t, "GET", "/api/admin/users", { token: admin.token, query });
      expect(response.statusCode).toBe(400);
      expect(messageOf(response)).toMatch(new RegExp(`^${field}: `));
    }
  });

  it("answers one user's details; 404 for an unknown id, 400 for a malformed one", async () => {
    const target = seeded[0];
    if (!target) throw new Error("seed");
    const response = await call(t, "GET", `/api/admin/users/${target.id}`, { token: admin.token });
    expect(response.statusCode).toBe(200);
    const { data } = adminUserDetailResponseSchema.parse(response.json());
    expect(data).toMatchObject({
      _id: target.id,
      name: target.name,
      role: "user",
      isActive: true,
      credits: 10,
      dailyMessageCount: 0,
      totalSpent: 0,
      subscription: { status: "inactive", plan: null },
    });
    const unknown = await call(t, "GET", "/api/admin/users/00000000-0000-4000-8000-000000000000", {
      token: admin.token,
    });
    expect(unknown.statusCode).toBe(404);
    expect(messageOf(unknown)).toBe("User not found");
    const malformed = await call(t, "GET", "/api/admin/users/not-a-uuid", { token: admin.token });
    expect(malformed.statusCode).toBe(400);
    expect(messageOf(malformed)).toMatch(/^userId: /);
  });

  it("status: activate, deactivate and suspend; never the admin itself; 404 unknown", async () => {
    const target = seeded[2];
    if (!target) throw new Error("seed");
    const url = `/api/admin/users/${target.id}/status`;
    const deactivated = await call(t, "PUT", url, {
      token: admin.token,
      body: { action: "deactivate" },
    });
    expect(deactivated.statusCode).toBe(200);
    const body = userStatusResponseSchema.parse(deactivated.json());
    expect(body.message).toBe(ADMIN_MESSAGES.deactivated);
    expect(body.data.isActive).toBe(false);

    const activated = await call(t, "PUT", url, {
      token: admin.token,
      body: { action: "activate" },
    });
    expect(activated.json()).toMatchObject({
      message: ADMIN_MESSAGES.activated,
      data: { isActive: true },
    });

    const suspended = await call(t, "PUT", url, {
      token: admin.token,
      body: { action: "suspend" },
    });
    expect(suspended.json()).toMatchObject({ data: { isActive: false } });
    await call(t, "PUT", url, { token: admin.token, body: { action: "activate" } });

    const self = await call(t, "PUT", `/api/admin/users/${admin.id}/status`, {
      token: admin.token,
      body: { action: "deactivate" },
    });
    expect(self.statusCode).toBe(400);
    expect(messageOf(self)).toBe(ADMIN_MESSAGES.cannotDeactivateSelf);

    const unknown = await call(
      t,
      "PUT",
      "/api/admin/users/00000000-0000-4000-8000-000000000000/status",
      {
        token: admin.token,
        body: { action: "activate" },
      },
    );
    expect(unknown.statusCode).toBe(404);
    const badAction = await call(t, "PUT", url, { token: admin.token, body: { action: "delete" } });
    expect(badAction.statusCode).toBe(400);
    expect(messageOf(badAction)).toMatch(/^action: /);
  });
});
