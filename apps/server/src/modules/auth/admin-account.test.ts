import { AUTH_MESSAGES } from "@twinline/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { ADULT_BIRTH_DATE, call, messageOf } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { users } from "../../db/schema/index.ts";

describe("the admin of ADMIN_EMAIL and ADMIN_PASSWORD", () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close().catch(() => {});
  });

  const adminRows = (t: TestApp) =>
    t.app.database.db.select().from(users).where(eq(users.role, "admin"));
  const login = (t: TestApp, password: string) =>
    call(t, "POST", "/api/admin/login", { body: { email: "boss@example.com", password } });

  it("is created at boot, kept as is on a restart, and updated with a new password", async () => {
    const first = await createTestApp({
      env: { ADMIN_EMAIL: "Boss@Example.com", ADMIN_PASSWORD: "first secret" },
    });
    apps.push(first);
    const created = await adminRows(first);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ email: "boss@example.com", role: "admin", isActive: true });
    const session = await login(first, "first secret");
    expect(session.statusCode).toBe(200);
    expect(session.json().admin).toMatchObject({ email: "boss@example.com", role: "admin" });
    await first.close();

    // A restart with the same values changes nothing: the session survives.
    const second = await createTestApp({
      sameDatabaseAs: first,
      env: { ADMIN_EMAIL: "boss@example.com", ADMIN_PASSWORD: "first secret" },
    });
    apps.push(second);
    const kept = await adminRows(second);
    expect(kept).toHaveLength(1);
    expect(kept[0]?.passwordHash).toBe(created[0]?.passwordHash);
    const token = session.json().token;
    expect((await call(second, "GET", "/api/admin/verify-token", { token })).statusCode).toBe(200);
    await second.close();

    // A new password replaces the old one and ends the earlier sessions.
    const third = await createTestApp({
      sameDatabaseAs: first,
      env: { ADMIN_EMAIL: "boss@example.com", ADMIN_PASSWORD: "second secret" },
    });
    apps.push(third);
    expect(await adminRows(third)).toHaveLength(1);
    expect((await login(third, "first secret")).statusCode).toBe(401);
    expect((await login(third, "second secret")).statusCode).toBe(200);
    expect((await call(third, "GET", "/api/admin/verify-token", { token })).statusCode).toBe(401);

    // A deactivated admin's login is refused with 403; the boot sync activates it again.
    await third.app.database.db
      .update(users)
      .set({ isActive: false })
      .where(sql`lower(${users.email}) = 'boss@example.com'`);
    const refused = await login(third, "second secret");
    expect(refused.statusCode).toBe(403);
    expect(messageOf(refused)).toBe(AUTH_MESSAGES.accountDeactivated);
    expect(
      await third.app.auth.syncAdmin({ email: "boss@example.com", password: "second secret" }),
    ).toBe("updated");
    expect((await login(third, "second secret")).statusCode).toBe(200);
  });

  it("promotes an existing user account", async () => {
    const t = await createTestApp();
    apps.push(t);
    const signup = await call(t, "POST", "/api/auth/signup", {
      body: {
        name: "Promoted",
        email: "boss@example.com",
        password: "user password",
        dateOfBirth: ADULT_BIRTH_DATE,
      },
    });
    expect(signup.statusCode).toBe(201);
    expect(
      await t.app.auth.syncAdmin({ email: "BOSS@example.com", password: "admin password" }),
    ).toBe("updated");
    const rows = await adminRows(t);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.name).toBe("Promoted");
    expect((await login(t, "admin password")).statusCode).toBe(200);
  });
});
