import { AUTH_MESSAGES } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_ERRORS } from "../src/plugins/auth.ts";
import { adminSession, call, messageOf, signUp } from "./accounts.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
interface Route {
  method: Method;
  path: string;
}

/** Every route the app registered, as its OpenAPI document lists them (all routes are in it). */
function registeredRoutes(t: TestApp): Route[] {
  const document = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((m) => ["get", "post", "put", "patch", "delete"].includes(m))
      .map((m) => ({ method: m.toUpperCase() as Method, path })),
  );
}

describe("the authorization walk", () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof adminSession>>;
  let deactivatedAdminToken: string;
  let userToken: string;
  let userId: string;
  let deactivatedUserToken: string;
  let adminRoutes: Route[];
  let userRoutes: Route[];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminSession(t);
    const other = await adminSession(t);
    deactivatedAdminToken = other.token;
    const user = await signUp(t);
    userToken = user.token;
    userId = user.user.id;
    const victim = await signUp(t);
    deactivatedUserToken = victim.token;
    for (const id of [other.id, victim.user.id]) {
      const response = await call(t, "PUT", `/api/admin/users/${id}/status`, {
        token: admin.token,
        body: { action: "deactivate" },
      });
      expect(response.statusCode).toBe(200);
    }
    const all = registeredRoutes(t);
    // The admin prefix, the AI training, and every settings route but the public read.
    adminRoutes = all.filter(
      (r) =>
        (r.path.startsWith("/api/admin/") && r.path !== "/api/admin/login") ||
        r.path === "/api/ai-training" ||
        r.path.startsWith("/api/ai-training/") ||
        (r.path.startsWith("/api/settings") && !(r.method === "GET" && r.path === "/api/settings")),
    );
    userRoutes = all.filter(
      (r) =>
        r.path === "/api/auth/me" ||
        r.path === "/api/auth/logout" ||
        r.path.startsWith("/api/users/") ||
        r.path.startsWith("/api/chat/"),
    );
  });
  afterAll(() => t?.close());

  // Path parameters get a real user's id, so an admin's call reaches the route's own rules.
  const urlOf = (route: Route) => route.path.replace(/\{[^}]+\}/g, userId);
  // A logout ends the token it is called with: it gets a session of its own.
  const isLogout = (route: Route) => route.path.endsWith("/logout");
  const freshAdminToken = async () =>
    (await adminSession(t, { email: admin.email, password: admin.password })).token;

  it("finds the admin and user routes", () => {
    expect(adminRoutes.length).toBeGreaterThanOrEqual(7);
    expect(adminRoutes).toContainEqual({ method: "GET", path: "/api/admin/users" });
    for (const route of [
      { method: "PUT", path: "/api/settings" },
      { method: "POST", path: "/api/settings/test-openai" },
      { method: "POST", path: "/api/settings/upload" },
      { method: "DELETE", path: "/api/settings/image/{kind}" },
      { method: "GET", path: "/api/admin/settings" },
      { method: "POST", path: "/api/ai-training/knowledge-documents" },
      { method: "GET", path: "/api/ai-training/voice-sample/audio" },
      { method: "POST", path: "/api/ai-training/generate-voice-clone" },
    ]) {
      expect(adminRoutes).toContainEqual(route);
    }
    expect(userRoutes).toContainEqual({ method: "PUT", path: "/api/users/password" });
    expect(userRoutes).toContainEqual({ method: "POST", path: "/api/chat/message" });
    expect(userRoutes).toContainEqual({ method: "POST", path: "/api/auth/logout" });
    expect(adminRoutes).toContainEqual({ method: "POST", path: "/api/admin/logout" });
    expect(adminRoutes).toContainEqual({ method: "GET", path: "/api/admin/chat-logs/export" });
  });

  it("every admin route: no token 401, user token 403, deactivated admin 401, admin allowed", async () => {
    for (const route of adminRoutes) {
      const url = urlOf(route);
      const label = `${route.method} ${route.path}`;
      const body = route.method === "GET" || route.method === "DELETE" ? undefined : {};

      const none = await call(t, route.method, url, { body });
      expect(none.statusCode, `${label} without a token`).toBe(401);

      const asUser = await call(t, route.method, url, { token: userToken, body });
      expect(asUser.statusCode, `${label} with a user token`).toBe(403);

      const asDeactivated = await call(t, route.method, url, {
        token: deactivatedAdminToken,
        body,
      });
      expect(asDeactivated.statusCode, `${label} as a deactivated admin`).toBe(401);
      expect(messageOf(asDeactivated)).toBe(AUTH_MESSAGES.accountDeactivated);

      const token = isLogout(route) ? await freshAdminToken() : admin.token;
      const asAdmin = await call(t, route.method, url, { token, body });
      expect([401, 403], `${label} as the admin: ${asAdmin.body}`).not.toContain(
        asAdmin.statusCode,
      );
      expect(asAdmin.statusCode, `${label} as the admin`).toBeLessThan(500);
    }
  });

  it("every user route: no token 401, deactivated user 401 saying so, user allowed", async () => {
    for (const route of userRoutes) {
      const url = urlOf(route);
      const label = `${route.method} ${route.path}`;
      const body = route.method === "GET" ? undefined : {};
      const none = await call(t, route.method, url, { body });
      expect(none.statusCode, `${label} without a token`).toBe(401);
      expect(messageOf(none)).toBe(AUTH_ERRORS.missingToken);

      const deactivated = await call(t, route.method, url, { token: deactivatedUserToken, body });
      expect(deactivated.statusCode, `${label} as a deactivated user`).toBe(401);
      expect(messageOf(deactivated)).toBe(AUTH_MESSAGES.accountDeactivated);

      const token = isLogout(route) ? (await signUp(t)).token : userToken;
      const asUser = await call(t, route.method, url, { token, body });
      expect([401, 403], `${label} as the user`).not.toContain(asUser.statusCode);
    }
  });
});

describe("malformed bodies get 400 naming the field, never 500", () => {
  let t: TestApp;
  let userToken: string;
  let adminToken: string;
  let userId: string;
  beforeAll(async () => {
    t = await createTestApp();
    const user = await signUp(t);
    userToken = user.token;
    userId = user.user.id;
    adminToken = (await adminSession(t)).token;
  });
  afterAll(() => t?.close());

  type Auth = "none" | "user" | "admin";
  const routes: Array<{ method: Method; path: string; auth: Auth; valid: object }> = [
    {
      method: "POST",
      path: "/api/auth/signup",
      auth: "none",
      valid: { name: "A", email: "a@b.co", password: "12345678", dateOfBirth: "1990-05-17" },
    },
    {
      method: "POST",
      path: "/api/auth/login",
      auth: "none",
      valid: { email: "a@b.co", password: "x" },
    },
    { method: "POST", path: "/api/auth/google", auth: "none", valid: { token: "x" } },
    { method: "POST", path: "/api/auth/forgotpassword", auth: "none", valid: { email: "a@b.co" } },
    {
      method: "PUT",
      path: "/api/auth/resetpassword/{token}",
      auth: "none",
      valid: { password: "123456" },
    },
    { method: "PUT", path: "/api/users/profile", auth: "user", valid: { name: "A" } },
    {
      method: "PUT",
      path: "/api/users/password",
      auth: "user",
      valid: { currentPassword: "x", newPassword: "12345678" },
    },
    {
      method: "POST",
      path: "/api/admin/login",
      auth: "none",
      valid: { email: "a@b.co", password: "x" },
    },
    {
      method: "PUT",
      path: "/api/admin/change-password",
      auth: "admin",
      valid: { currentPassword: "x", newPassword: "123456" },
    },
    { method: "POST", path: "/api/chat/message", auth: "user", valid: { message: "Hi" } },
    {
      method: "PUT",
      path: "/api/admin/users/{userId}/status",
      auth: "admin",
      valid: { action: "activate" },
    },
  ];

  const urlOf = (path: string) =>
    path.replace("{userId}", userId).replace("{token}", "A".repeat(43));

  for (const route of routes) {
    it(`${route.method} ${route.path}`, async () => {
      const url = urlOf(route.path);
      const token =
        route.auth === "user" ? userToken : route.auth === "admin" ? adminToken : undefined;
      for (const field of Object.keys(route.valid)) {
        const missing: Record<string, unknown> = { ...route.valid };
        delete missing[field];
        const wrongType = { ...route.valid, [field]: 12345 };
        for (const [what, body] of [
          ["missing", missing],
          ["wrong type", wrongType],
        ] as const) {
          const response = await call(t, route.method, url, { token, body });
          expect(response.statusCode, `${field} ${what}: ${response.body}`).toBe(400);
          expect(messageOf(response), `${field} ${what}`).toMatch(new RegExp(`^${field}: `));
        }
      }
      for (const body of [[], "text", null]) {
        const response = await call(t, route.method, url, {
          token,
          body: JSON.stringify(body),
          headers: { "content-type": "application/json" },
        });
        expect(response.statusCode, `body ${JSON.stringify(body)}: ${response.body}`).toBe(400);
      }
      const notJson = await call(t, route.method, url, {
        token,
        body: "{not json",
        headers: { "content-type": "application/json" },
      });
      expect(notJson.statusCode).toBe(400);
      expect(messageOf(notJson)).toBe("Request body is not valid JSON");
      const none = await call(t, route.method, url, { token });
      expect(none.statusCode, `no body: ${none.body}`).toBe(400);
    });
  }
});
