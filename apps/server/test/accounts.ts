import type { AuthResponse } from "@twinline/contracts";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { TestApp } from "./create-test-app.ts";

/** A browser's CSRF state: the token for the header and the cookie that goes with it. */
export interface Csrf {
  token: string;
  cookie: string;
}

const csrfByApp = new WeakMap<TestApp, Csrf>();

export async function csrfFor(t: TestApp): Promise<Csrf> {
  const known = csrfByApp.get(t);
  if (known) return known;
  const response = await t.app.inject({ method: "GET", url: "/api/csrf-token" });
  const cookie = response.cookies.find((c) => c.name === "_csrf");
  if (!cookie) throw new Error("no _csrf cookie");
  const csrf = { token: response.json().csrfToken as string, cookie: cookie.value };
  csrfByApp.set(t, csrf);
  return csrf;
}

export interface CallOptions {
  token?: string | undefined;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

/** A request as the web client sends it: CSRF header and cookie, Bearer token when given. */
export async function call(
  t: TestApp,
  method: InjectOptions["method"],
  url: string,
  options: CallOptions = {},
): Promise<LightMyRequestResponse> {
  const csrf = await csrfFor(t);
  return t.app.inject({
    method,
    url,
    headers: {
      "csrf-token": csrf.token,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    cookies: { _csrf: csrf.cookie },
    ...(options.query ? { query: options.query } : {}),
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
  });
}

let counter = 0;

/** A fresh, unique e-mail address. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

export const PASSWORD = "correct horse battery";

/** A date of birth well over any minimum age, for sign-ups that are not about the age gate. */
export const ADULT_BIRTH_DATE = "1990-05-17";

/** Signs a new user up through the API; answers the session. */
export async function signUp(
  t: TestApp,
  input: { name?: string; email?: string; password?: string; dateOfBirth?: string } = {},
): Promise<AuthResponse & { password: string }> {
  const password = input.password ?? PASSWORD;
  const response = await call(t, "POST", "/api/auth/signup", {
    body: {
      name: input.name ?? "Test User",
      email: input.email ?? uniqueEmail(),
      password,
      dateOfBirth: input.dateOfBirth ?? ADULT_BIRTH_DATE,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { ...(response.json() as AuthResponse), password };
}

/** Creates (or updates) an admin account and logs it in through the API. */
export async function adminSession(
  t: TestApp,
  input: { email?: string; password?: string } = {},
): Promise<{ token: string; id: string; email: string; password: string }> {
  const email = input.email ?? uniqueEmail("admin");
  const password = input.password ?? PASSWORD;
  await t.app.auth.syncAdmin({ email, password });
  const response = await call(t, "POST", "/api/admin/login", { body: { email, password } });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  return { token: body.token, id: body.admin.id, email, password };
}

/** The error envelope's message. */
export function messageOf(response: LightMyRequestResponse): string {
  return (response.json() as { message: string }).message;
}
