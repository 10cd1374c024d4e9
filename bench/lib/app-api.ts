import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { loadConfig } from "../../apps/server/src/config.ts";

// The app's API as a browser calls it, through app.inject, for the benches' setup.

export interface BrowserCsrf {
  token: string;
  cookie: string;
}

/**
 * The configuration of an in-process bench app: the offline providers (no key), quiet logs, and
 * `BENCH_DATA_DIR` or a new temporary directory named after the bench.
 */
export function benchAppConfig(name: string) {
  const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), `twinline-${name}-`));
  const config = loadConfig({
    ...process.env,
    OPENAI_API_KEY: "",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
  });
  return { dataDir, config };
}

/** A CSRF token and its cookie, as a browser holds them, and the headers that send both. */
export async function browserCsrf(app: FastifyInstance) {
  const response = await app.inject({ method: "GET", url: "/api/csrf-token" });
  const cookie = response.cookies.find((c) => c.name === "_csrf")?.value ?? "";
  const csrf: BrowserCsrf = { token: response.json().csrfToken as string, cookie };
  return { csrf, headers: { "csrf-token": csrf.token, cookie: `_csrf=${cookie}` } };
}

/** Signs a user up through the API; answers its id and bearer token. */
export async function signUpBenchUser(
  app: FastifyInstance,
  csrfHeaders: Record<string, string>,
  user: { name: string; email: string },
): Promise<{ id: string; token: string }> {
  const signup = await app.inject({
    method: "POST",
    url: "/api/auth/signup",
    headers: csrfHeaders,
    payload: { ...user, password: "bench password", dateOfBirth: "1990-05-17" },
  });
  if (signup.statusCode !== 201) {
    throw new Error(`bench sign-up: ${signup.statusCode} ${signup.body}`);
  }
  const body = signup.json();
  return { id: body.user.id as string, token: body.token as string };
}

/**
 * GET requests as the bench's admin, made (or its password reset) and signed in through the
 * API now: call it after any seed that empties the users table.
 */
export async function adminGet(app: FastifyInstance) {
  const email = "bench-admin@example.com";
  const password = "bench admin password";
  await app.auth.syncAdmin({ email, password });
  const { headers } = await browserCsrf(app);
  const login = await app.inject({
    method: "POST",
    url: "/api/admin/login",
    headers,
    payload: { email, password },
  });
  if (login.statusCode !== 200) throw new Error(`bench admin login: ${login.statusCode}`);
  const authorization = `Bearer ${login.json().token as string}`;
  return (url: string) => () => app.inject({ method: "GET", url, headers: { authorization } });
}
