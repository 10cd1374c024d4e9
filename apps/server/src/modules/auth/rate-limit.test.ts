import { tooManyAttemptsMessage } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADULT_BIRTH_DATE,
  adminSession,
  call,
  csrfFor,
  messageOf,
  PASSWORD,
  signUp,
  uniqueEmail,
} from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { DEVICE_COOKIE_PREFIX } from "../../plugins/login-throttle.ts";

describe("rate limits on the sign-in family", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ authRateLimit: { max: 3, timeWindowMs: 60_000 } });
  });
  afterAll(() => t?.close());

  const routes: Array<[string, string, unknown]> = [
    ["POST", "/api/auth/signup", { name: "A", email: "bad", password: "x" }],
    ["POST", "/api/auth/google", { token: "x" }],
    ["POST", "/api/auth/forgotpassword", { email: "a@example.com" }],
    ["PUT", `/api/auth/resetpassword/${"A".repeat(30)}`, { password: "123456" }],
  ];

  for (const [method, url, body] of routes) {
    it(`${method} ${url.replace(/A{30}/, "{token}")}: 429 with the message after the limit`, async () => {
      for (let i = 0; i < 3; i++) {
        const response = await call(t, method as "POST", url, { body });
        expect(response.statusCode).not.toBe(429);
      }
      const limited = await call(t, method as "POST", url, { body });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        success: false,
        message: tooManyAttemptsMessage(Number(limited.headers["retry-after"])),
      });
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    });
  }

  it("counts each route apart, and leaves other routes alone", async () => {
    const response = await call(t, "GET", "/api/auth/config");
    expect(response.statusCode).toBe(200);
    // Sign-up was limited above (any body): a valid one is limited too, by IP and route.
    const signup = await call(t, "POST", "/api/auth/signup", {
      body: {
        name: "A",
        email: uniqueEmail(),
        password: "long enough pw",
        dateOfBirth: ADULT_BIRTH_DATE,
      },
    });
    expect(signup.statusCode).toBe(429);
    expect(messageOf(signup)).toBe(tooManyAttemptsMessage(Number(signup.headers["retry-after"])));
  });
});

/** A login from a given client address, with the cookies of a device when given. */
async function loginFrom(
  t: TestApp,
  ip: string,
  url: "/api/auth/login" | "/api/admin/login",
  body: { email: string; password: string },
  device: Record<string, string> = {},
) {
  const csrf = await csrfFor(t);
  return t.app.inject({
    method: "POST",
    url,
    remoteAddress: ip,
    headers: { "csrf-token": csrf.token },
    cookies: { _csrf: csrf.cookie, ...device },
    payload: body,
  });
}

/** The device cookie a sign-in answer set (the browser keeps it for the next login). */
function deviceOf(response: { cookies: Array<{ name: string; value: string }> }) {
  const cookie = response.cookies.find((c) => c.name.startsWith(DEVICE_COOKIE_PREFIX));
  if (!cookie) throw new Error("no device cookie");
  return { [cookie.name]: cookie.value };
}

/** Signs up from a device (a browser): the account and that device's cookies. */
async function signUpOnDevice(t: TestApp, ip = "192.0.2.250") {
  const email = uniqueEmail();
  const csrf = await csrfFor(t);
  const signup = await t.app.inject({
    method: "POST",
    url: "/api/auth/signup",
    remoteAddress: ip,
    headers: { "csrf-token": csrf.token },
    cookies: { _csrf: csrf.cookie },
    payload: { name: "Owner", email, password: PASSWORD, dateOfBirth: ADULT_BIRTH_DATE },
  });
  expect(signup.statusCode, signup.body).toBe(201);
  return { email, device: deviceOf(signup) };
}

describe("the login throttle: per address, per account for strangers, per trusted device", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      authRateLimit: { max: 4, timeWindowMs: 60_000 },
      loginAccountLimit: { max: 3, timeWindowMs: 60_000 },
    });
  });
  afterAll(() => t?.close());

  it("the user and the admin login share one budget per address", async () => {
    const ip = "203.0.113.1";
    const body = { email: uniqueEmail(), password: "wrong" };
    for (let i = 0; i < 2; i++) {
      expect(
        (await loginFrom(t, ip, "/api/auth/login", { ...body, email: uniqueEmail() })).statusCode,
      ).toBe(401);
      expect(
        (await loginFrom(t, ip, "/api/admin/login", { ...body, email: uniqueEmail() })).statusCode,
      ).toBe(401);
    }
    for (const url of ["/api/auth/login", "/api/admin/login"] as const) {
      const limited = await loginFrom(t, ip, url, { ...body, email: uniqueEmail() });
      expect(limited.statusCode).toBe(429);
      expect(messageOf(limited)).toBe(
        tooManyAttemptsMessage(Number(limited.headers["retry-after"])),
      );
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    }
    // Another address has its own budget.
    expect((await loginFrom(t, "203.0.113.2", "/api/auth/login", body)).statusCode).toBe(401);
  });

  it("strangers from many addresses share one budget per account; the owner's device keeps signing in", async () => {
    // The owner signed up on their own device: it holds the account's device cookie.
    const { email, device: ownDevice } = await signUpOnDevice(t);

    // Three guesses from three addresses spend the strangers' budget of the account...
    for (let i = 1; i <= 3; i++) {
      const guess = await loginFrom(t, `198.51.100.${i}`, "/api/auth/login", {
        email,
        password: `guess ${i}`,
      });
      expect(guess.statusCode).toBe(401);
    }
    // ...so every further stranger, from any new address, is refused before the password is
    // checked: even with the right password, a client without the device cookie waits.
    for (const ip of ["198.51.100.1", "198.51.100.50", "198.51.100.51"]) {
      const refused = await loginFrom(t, ip, "/api/auth/login", { email, password: PASSWORD });
      expect(refused.statusCode).toBe(429);
      expect(messageOf(refused)).toBe(
        tooManyAttemptsMessage(Number(refused.headers["retry-after"])),
      );
    }
    // A device cookie of another account, or a forged one, does not help.
    const other = await signUp(t);
    const otherLogin = await loginFrom(t, "198.51.100.60", "/api/auth/login", {
      email: other.user.email,
      password: PASSWORD,
    });
    const [otherName, otherValue] = Object.entries(deviceOf(otherLogin))[0] ?? [];
    const ownName = Object.keys(ownDevice)[0] ?? "";
    for (const cookie of [{ [ownName]: otherValue ?? "" }, { [ownName]: "forged.value" }]) {
      const refused = await loginFrom(
        t,
        "198.51.100.61",
        "/api/auth/login",
        {
          email,
          password: PASSWORD,
        },
        cookie,
      );
      expect(refused.statusCode).toBe(429);
    }
    expect(otherName).not.toBe(ownName);
    // The owner's device signs in, from any address, as often as they like.
    for (let i = 0; i < 5; i++) {
      const mine = await loginFrom(
        t,
        "198.51.100.1",
        "/api/auth/login",
        {
          email,
          password: PASSWORD,
        },
        ownDevice,
      );
      expect(mine.statusCode, mine.body).toBe(200);
    }
    // Another account is not touched by these guesses.
    const fine = await loginFrom(t, "198.51.100.2", "/api/auth/login", {
      email: other.user.email,
      password: PASSWORD,
    });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it("successful logins spend no budget: good admin logins from new addresses never lock the next one out", async () => {
    const admin = await adminSession(t);
    const right = { email: admin.email, password: admin.password };
    // More good logins than either budget (3 per account, 4 per address), each from a new
    // address and without the device cookie (a new browser each time), then from one address.
    for (let i = 1; i <= 6; i++) {
      const good = await loginFrom(t, `192.0.2.${100 + i}`, "/api/admin/login", right);
      expect(good.statusCode, good.body).toBe(200);
    }
    for (let i = 0; i < 6; i++) {
      const good = await loginFrom(t, "192.0.2.120", "/api/admin/login", right);
      expect(good.statusCode, good.body).toBe(200);
    }
    // Failures still count: three wrong guesses spend the strangers' budget of the account.
    for (let i = 1; i <= 3; i++) {
      const guess = await loginFrom(t, `192.0.2.${130 + i}`, "/api/admin/login", {
        email: admin.email,
        password: `guess ${i}`,
      });
      expect(guess.statusCode).toBe(401);
    }
    const refused = await loginFrom(t, "192.0.2.140", "/api/admin/login", right);
    expect(refused.statusCode).toBe(429);
  });

  it("a 429 says the real wait: the Retry-After, in minutes when it is a minute or more", async () => {
    const throttled = await createTestApp({
      authRateLimit: { max: 10, timeWindowMs: 60_000 },
      loginAccountLimit: { max: 1, timeWindowMs: 15 * 60_000 },
    });
    try {
      const email = uniqueEmail();
      const body = { email, password: "wrong" };
      expect((await loginFrom(throttled, "192.0.2.150", "/api/auth/login", body)).statusCode).toBe(
        401,
      );
      const refused = await loginFrom(throttled, "192.0.2.151", "/api/auth/login", body);
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(messageOf(refused)).toBe("Too many attempts. Please wait 15 minutes and try again.");
    } finally {
      await throttled.close();
    }
  });

  it("a trusted device has a budget of its own for wrong passwords", async () => {
    const { email, device } = await signUpOnDevice(t);
    const wrong = { email, password: "typo" };
    for (let i = 0; i < 3; i++) {
      expect((await loginFrom(t, "192.0.2.100", "/api/auth/login", wrong, device)).statusCode).toBe(
        401,
      );
    }
    const refused = await loginFrom(t, "192.0.2.100", "/api/auth/login", wrong, device);
    expect(refused.statusCode).toBe(429);
  });

  it("sign-up marks the device as trusted for the new account", async () => {
    const { email, device } = await signUpOnDevice(t);
    for (let i = 0; i < 4; i++) {
      await loginFrom(t, `192.0.2.${160 + i}`, "/api/auth/login", { email, password: "guess" });
    }
    const mine = await loginFrom(
      t,
      "192.0.2.170",
      "/api/auth/login",
      { email, password: PASSWORD },
      device,
    );
    expect(mine.statusCode, mine.body).toBe(200);
  });

  it("the admin login is throttled per account and per device the same way", async () => {
    const admin = await adminSession(t);
    const own = await loginFrom(t, "192.0.2.200", "/api/admin/login", {
      email: admin.email,
      password: admin.password,
    });
    expect(own.statusCode, own.body).toBe(200);
    const device = deviceOf(own);
    // adminSession's login and this one were strangers' sign-ins (no device cookie yet), which
    // spend nothing: three wrong passwords spend the account's budget of three.
    const wrong = { email: admin.email, password: "not the password" };
    for (const ip of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) {
      expect((await loginFrom(t, ip, "/api/admin/login", wrong)).statusCode).toBe(401);
    }
    const stranger = await loginFrom(t, "192.0.2.9", "/api/admin/login", {
      email: admin.email,
      password: admin.password,
    });
    expect(stranger.statusCode).toBe(429);
    const owner = await loginFrom(
      t,
      "192.0.2.1",
      "/api/admin/login",
      {
        email: admin.email,
        password: admin.password,
      },
      device,
    );
    expect(owner.statusCode, owner.body).toBe(200);
  });
});
