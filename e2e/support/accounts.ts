import { expect } from "@playwright/test";
import type { APIResponse, Page } from "playwright-core";

export const ADMIN_EMAIL = "admin@twinline.test";
export const ADMIN_PASSWORD = "admin-pass-123";
/** The server creates this admin at boot (startServer's env). */
export const ADMIN_ENV = { ADMIN_EMAIL, ADMIN_PASSWORD };

export const FAN_PASSWORD = "user-pass-123";
/** A date of birth well over any minimum age. */
export const FAN_BIRTH_DATE = "1990-05-17";

export interface Fan {
  name: string;
  email: string;
}

/** A fan whose e-mail no other test of the file signs up: the tests share one server. */
export function uniqueFan(label: string, displayName = label): Fan {
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  return { name: `${displayName} ${stamp}`, email: `${label}-${stamp}@example.com` };
}

/** A CSRF token for API calls the test makes itself; it is bound to the page context's cookie. */
export async function csrfToken(page: Page, baseUrl: string): Promise<string> {
  const answer = await page.context().request.get(`${baseUrl}/api/csrf-token`);
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { csrfToken: string }).csrfToken;
}

/**
 * Sends a request the test makes itself with a CSRF token, and once more with a fresh token when
 * the server refuses it as the web client does (apps/web's CSRF retry): a page the test has just
 * opened asks for its own token, and when both ask before the context has a CSRF cookie, the
 * cookie kept is the page's and the test's first token no longer matches it.
 */
export async function sendWithCsrf(
  page: Page,
  baseUrl: string,
  send: (csrf: string) => Promise<APIResponse>,
): Promise<APIResponse> {
  const first = await send(await csrfToken(page, baseUrl));
  if (first.status() !== 403 || !(await first.text()).includes("CSRF")) return first;
  return send(await csrfToken(page, baseUrl));
}

/**
 * Signs a fan up through the API and keeps them signed in in the page's context, as the sign-up
 * form would (auth.test.ts drives the form itself). Returns their bearer token.
 */
export async function signUpFan(page: Page, baseUrl: string, fan: Fan): Promise<string> {
  const signup = await sendWithCsrf(page, baseUrl, (csrf) =>
    page.context().request.post(`${baseUrl}/api/auth/signup`, {
      headers: { "csrf-token": csrf },
      data: {
        name: fan.name,
        email: fan.email,
        password: FAN_PASSWORD,
        dateOfBirth: FAN_BIRTH_DATE,
      },
    }),
  );
  expect(signup.status(), await signup.text()).toBeLessThan(300);
  const { token, user } = (await signup.json()) as { token: string; user: unknown };
  // The app keeps its session in the origin's localStorage, reachable once a page of it is open.
  await page.goto(`${baseUrl}/`);
  await page.evaluate(
    (session) => {
      localStorage.setItem("userToken", session.token);
      localStorage.setItem("userData", JSON.stringify(session.user));
    },
    { token, user },
  );
  return token;
}

const ADMIN_LOGIN = "/admin/login";

/**
 * Signs the admin in through the login form. Opened at the form, it lands on the dashboard
 * (admin-side spec, section 2); opened at another admin page, the guard sends the admin to the
 * form first and back to that page after.
 */
export async function signInAdmin(page: Page, baseUrl: string, openAt = ADMIN_LOGIN) {
  await page.goto(`${baseUrl}${openAt}`);
  if (openAt !== ADMIN_LOGIN) await page.waitForURL(/\/admin\/Login$/);
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password", { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${baseUrl}${openAt === ADMIN_LOGIN ? "/admin/dashboard" : openAt}`);
}

/**
 * The admin's bearer token from a login through the API in the page's context, for setup the
 * test makes itself (the login form has its own tests). Each call is one login: the sign-in
 * rate limit counts it.
 */
export async function adminApiToken(page: Page, baseUrl: string): Promise<string> {
  const login = await sendWithCsrf(page, baseUrl, (csrf) =>
    page.context().request.post(`${baseUrl}/api/admin/login`, {
      headers: { "csrf-token": csrf },
      data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    }),
  );
  expect(login.status(), await login.text()).toBeLessThan(300);
  return ((await login.json()) as { token: string }).token;
}

/** The bearer token the admin's page holds once signed in (signInAdmin). */
export async function signedInAdminToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem("adminToken"));
  expect(token, "the admin's page is signed in").toBeTruthy();
  return token as string;
}

/** Changes settings as the admin through the API, for tests of something other than the form. */
export async function changeSettingsAsAdmin(
  page: Page,
  baseUrl: string,
  changes: Record<string, unknown>,
) {
  const request = page.context().request;
  const token = await adminApiToken(page, baseUrl);
  const current = await request.get(`${baseUrl}/api/admin/settings`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(current.ok(), await current.text()).toBe(true);
  // The write takes the whole settings object; the providers' modes and key tests are only reported.
  const {
    providers: _providers,
    keyTests: _keyTests,
    ...settings
  } = ((await current.json()) as { data: Record<string, unknown> }).data;
  const put = await sendWithCsrf(page, baseUrl, (csrf) =>
    request.put(`${baseUrl}/api/settings`, {
      headers: { authorization: `Bearer ${token}`, "csrf-token": csrf },
      data: { ...settings, ...changes },
    }),
  );
  expect(put.status(), await put.text()).toBeLessThan(300);
}
