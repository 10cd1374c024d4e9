import { tooManyAttemptsMessage } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_AUTH_RATE_LIMIT, DEFAULT_LOGIN_ACCOUNT_LIMIT } from "../src/plugins/rate-limit.ts";
import { ADULT_BIRTH_DATE, PASSWORD, uniqueEmail } from "./accounts.ts";
import { createTestApp } from "./create-test-app.ts";
import { Browser, startForwardingProxy } from "./loopback-http.ts";

/** The real app listening on loopback, behind a forwarding proxy, with the real limits. */
async function deployBehindProxy(env: NodeJS.ProcessEnv) {
  const t = await createTestApp({
    env,
    authRateLimit: DEFAULT_AUTH_RATE_LIMIT,
    loginAccountLimit: DEFAULT_LOGIN_ACCOUNT_LIMIT,
  });
  const appUrl = await t.app.listen({ host: "127.0.0.1", port: 0 });
  const proxy = await startForwardingProxy(appUrl);
  return {
    t,
    /** A person's browser at 127.0.0.N, reaching the app through the proxy. */
    person: (n: number) => new Browser(proxy.url, `127.0.0.${n}`),
    close: async () => {
      await proxy.close();
      await t.close();
    },
  };
}

const signUpAs = (browser: Browser, email: string) =>
  browser.call("POST", "/api/auth/signup", {
    name: "Person",
    email,
    password: PASSWORD,
    dateOfBirth: ADULT_BIRTH_DATE,
  });

describe("behind a proxy with TRUST_PROXY (one hop)", () => {
  let deployment: Awaited<ReturnType<typeof deployBehindProxy>>;
  beforeAll(async () => {
    deployment = await deployBehindProxy({ TRUST_PROXY: "1" });
  });
  afterAll(() => deployment?.close());

  it("twelve people at twelve addresses all sign up", async () => {
    const answers = [];
    for (let n = 10; n < 22; n++) {
      answers.push(await signUpAs(deployment.person(n), uniqueEmail("person")));
    }
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(201));
    // A token answer is never cached.
    expect(answers[0]?.headers["cache-control"]).toBe("no-store");
  });

  it("a stranger guessing from one address, spoofing X-Forwarded-For, locks no one out", async () => {
    const email = uniqueEmail("owner");
    const owner = deployment.person(30);
    expect((await signUpAs(owner, email)).status).toBe(201);
    const friendEmail = uniqueEmail("friend");
    expect((await signUpAs(deployment.person(31), friendEmail)).status).toBe(201);

    const stranger = deployment.person(66);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      // A forged header is kept, but the proxy appends the address it saw: that one counts.
      const answer = await stranger.call(
        "POST",
        "/api/auth/login",
        { email, password: `guess ${i}` },
        { "x-forwarded-for": `198.51.100.${i}` },
      );
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(answer.body.message).toBe(
          tooManyAttemptsMessage(Number(answer.headers["retry-after"])),
        );
        expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
      }
    }
    // At most the address's budget of guesses was checked; the rest were refused unchecked.
    expect(statuses.filter((status) => status === 401).length).toBe(DEFAULT_AUTH_RATE_LIMIT.max);
    expect(statuses.slice(DEFAULT_AUTH_RATE_LIMIT.max).every((status) => status === 429)).toBe(
      true,
    );

    // The owner, on the device they signed up with, signs in; so does anyone else at their own
    // address, on their own account.
    const mine = await owner.call("POST", "/api/auth/login", { email, password: PASSWORD });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.headers["cache-control"]).toBe("no-store");
    const friend = deployment.person(32);
    const theirs = await friend.call("POST", "/api/auth/login", {
      email: friendEmail,
      password: PASSWORD,
    });
    expect(theirs.status).toBe(200);
  });

  it("strangers at many addresses get one small budget per account; the owner's device still signs in", async () => {
    const email = uniqueEmail("owner");
    const owner = deployment.person(40);
    expect((await signUpAs(owner, email)).status).toBe(201);
    const checked: number[] = [];
    for (let n = 100; n < 100 + DEFAULT_LOGIN_ACCOUNT_LIMIT.max + 5; n++) {
      const answer = await deployment
        .person(n)
        .call("POST", "/api/auth/login", { email, password: `guess ${n}` });
      checked.push(answer.status);
    }
    expect(checked.filter((status) => status === 401).length).toBe(DEFAULT_LOGIN_ACCOUNT_LIMIT.max);
    expect(checked.slice(DEFAULT_LOGIN_ACCOUNT_LIMIT.max).every((s) => s === 429)).toBe(true);
    // Even the right password from a new device waits; the owner's own device does not.
    const newDevice = await deployment.person(200).call("POST", "/api/auth/login", {
      email,
      password: PASSWORD,
    });
    expect(newDevice.status).toBe(429);
    const mine = await owner.call("POST", "/api/auth/login", { email, password: PASSWORD });
    expect(mine.status).toBe(200);
  });
});

describe("behind a proxy without TRUST_PROXY", () => {
  let deployment: Awaited<ReturnType<typeof deployBehindProxy>>;
  beforeAll(async () => {
    deployment = await deployBehindProxy({});
  });
  afterAll(() => deployment?.close());

  it("every visitor is the proxy: the twelve people share one sign-up budget", async () => {
    const statuses = [];
    for (let n = 10; n < 22; n++) {
      statuses.push((await signUpAs(deployment.person(n), uniqueEmail("person"))).status);
    }
    expect(statuses.filter((status) => status === 201).length).toBe(DEFAULT_AUTH_RATE_LIMIT.max);
  });
});
