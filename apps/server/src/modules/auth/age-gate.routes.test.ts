import {
  AGE_MESSAGES,
  authResponseSchema,
  DATE_OF_BIRTH_REQUIRED_CODE,
  defaultPublicSettings,
  VOICE_CLOSE_CODES,
} from "@twinline/contracts";
import { count, eq, sql } from "drizzle-orm";
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
import type { TestApp } from "../../../test/create-test-app.ts";
import { type FakeGoogle, fakeGoogle, TEST_GOOGLE_CLIENT_ID } from "../../../test/google.ts";
import { startVoiceTestApp, type VoiceTestApp } from "../../../test/voice-app.ts";
import { connectVoice } from "../../../test/voice-client.ts";
import { creditLedger, users } from "../../db/schema/index.ts";
import { AGE_REFUSED_COOKIE } from "./age-refusal.ts";

/** `YYYY-MM-DD` of today (UTC) moved by whole years and days. */
function dateFromToday(years: number, days = 0): string {
  const now = new Date();
  const date = new Date(
    Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate() + days),
  );
  return date.toISOString().slice(0, 10);
}

describe("the age gate (issue 25, item 4)", () => {
  let voice: VoiceTestApp;
  let t: TestApp;
  let origin: string;
  let google: FakeGoogle;
  let googleIds = 0;

  beforeAll(async () => {
    google = fakeGoogle();
    voice = await startVoiceTestApp({
      env: { GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID },
      googleVerifier: google.verifier,
    });
    ({ t, origin } = voice);
  });
  afterAll(() => voice?.close());

  const signUpBody = (dateOfBirth: unknown, email = uniqueEmail("age")) => ({
    name: "Visitor",
    email,
    password: PASSWORD,
    dateOfBirth,
  });
  const signUpWith = (dateOfBirth: unknown, email?: string) =>
    call(t, "POST", "/api/auth/signup", { body: signUpBody(dateOfBirth, email) });
  const rowsFor = (email: string) =>
    t.app.database.db.select().from(users).where(eq(users.email, email));
  const ledgerSize = async () =>
    (await t.app.database.db.select({ n: count() }).from(creditLedger))[0]?.n ?? 0;
  const googleSignIn = (token: string, dateOfBirth?: string) =>
    call(t, "POST", "/api/auth/google", {
      body: { token, ...(dateOfBirth === undefined ? {} : { dateOfBirth }) },
    });
  const nextGoogleId = () => `age-g-${Date.now()}-${++googleIds}`;

  it("refuses a sign-up under the minimum age, storing nothing, and says the minimum age", async () => {
    const email = uniqueEmail("minor");
    const ledgerBefore = await ledgerSize();
    const response = await signUpWith(dateFromToday(-18, 1), email);
    expect(response.statusCode).toBe(403);
    expect(messageOf(response)).toBe(AGE_MESSAGES.underAge(18));
    expect(messageOf(response)).toContain("18");
    expect(await rowsFor(email)).toHaveLength(0);
    expect(await ledgerSize()).toBe(ledgerBefore);
    // The browser is marked with a constant under a signature: nothing that names the visitor.
    const mark = response.cookies.find((cookie) => cookie.name === AGE_REFUSED_COOKIE);
    expect(mark?.httpOnly).toBe(true);
    expect(mark?.value).not.toContain(email);
    expect(response.body).not.toContain(email);
  });

  it("counts a birthday today: 18 today is in, 18 tomorrow is out", async () => {
    const today = await signUpWith(dateFromToday(-18));
    expect(today.statusCode, today.body).toBe(201);
    expect(authResponseSchema.parse(today.json()).user.dateOfBirth).toBe(dateFromToday(-18));
    const tomorrow = await signUpWith(dateFromToday(-18, 1));
    expect(tomorrow.statusCode).toBe(403);
  });

  it("the browser refused once is refused again, whatever date it gives next", async () => {
    const refused = await signUpWith(dateFromToday(-10));
    const mark = refused.cookies.find((cookie) => cookie.name === AGE_REFUSED_COOKIE);
    expect(mark).toBeDefined();
    const email = uniqueEmail("retry");
    const csrf = await csrfFor(t);
    const retry = await t.app.inject({
      method: "POST",
      url: "/api/auth/signup",
      headers: { "csrf-token": csrf.token },
      cookies: { _csrf: csrf.cookie, [AGE_REFUSED_COOKIE]: mark?.value ?? "" },
      payload: signUpBody(ADULT_BIRTH_DATE, email),
    });
    expect(retry.statusCode).toBe(403);
    expect(messageOf(retry)).toBe(AGE_MESSAGES.underAge(18));
    expect(await rowsFor(email)).toHaveLength(0);
    // A forged mark (not signed by the server) is no mark.
    const forged = await t.app.inject({
      method: "POST",
      url: "/api/auth/signup",
      headers: { "csrf-token": csrf.token },
      cookies: { _csrf: csrf.cookie, [AGE_REFUSED_COOKIE]: "1" },
      payload: signUpBody(ADULT_BIRTH_DATE),
    });
    expect(forged.statusCode).toBe(201);
  });

  it("takes 29 February of a leap year and refuses it in another year", async () => {
    expect((await signUpWith("2000-02-29")).statusCode).toBe(201);
    const notADate = await signUpWith("2001-02-29");
    expect(notADate.statusCode).toBe(400);
    expect(messageOf(notADate)).toBe(`dateOfBirth: ${AGE_MESSAGES.malformed}`);
  });

  it("answers 400 naming dateOfBirth for a future, pre-1900, malformed or missing date", async () => {
    const cases: Array<[unknown, string]> = [
      [dateFromToday(0, 1), AGE_MESSAGES.inFuture],
      ["1899-12-31", AGE_MESSAGES.beforeEarliest],
      ["17/05/1990", AGE_MESSAGES.malformed],
      ["1990-13-01", AGE_MESSAGES.malformed],
      ["1990-5-7", AGE_MESSAGES.malformed],
      ["", AGE_MESSAGES.dateOfBirthRequired],
      [undefined, AGE_MESSAGES.dateOfBirthRequired],
    ];
    for (const [dateOfBirth, message] of cases) {
      const email = uniqueEmail("bad-date");
      const response = await signUpWith(dateOfBirth, email);
      expect(response.statusCode, String(dateOfBirth)).toBe(400);
      expect(messageOf(response)).toBe(`dateOfBirth: ${message}`);
      expect(await rowsFor(email)).toHaveLength(0);
    }
    const numeric = await signUpWith(19900517);
    expect(numeric.statusCode).toBe(400);
    expect(messageOf(numeric)).toMatch(/^dateOfBirth: /);
  });

  it("follows the operator's minimum age, which the contract keeps at 13 or more", async () => {
    const admin = await adminSession(t);
    const base = { ...structuredClone(defaultPublicSettings), apiKeys: undefined };
    const current = (await call(t, "GET", "/api/admin/settings", { token: admin.token })).json();
    const body = { ...base, apiKeys: current.data.apiKeys };
    const tooLow = await call(t, "PUT", "/api/settings", {
      token: admin.token,
      body: { ...body, minimumAge: 12 },
    });
    expect(tooLow.statusCode).toBe(400);
    expect(messageOf(tooLow)).toBe(`minimumAge: ${AGE_MESSAGES.minimumAgeTooLow}`);
    expect((await call(t, "GET", "/api/settings")).json().minimumAge).toBe(18);

    const saved = await call(t, "PUT", "/api/settings", {
      token: admin.token,
      body: { ...body, minimumAge: 21 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      const twenty = await signUpWith(dateFromToday(-20));
      expect(twenty.statusCode).toBe(403);
      expect(messageOf(twenty)).toBe(AGE_MESSAGES.underAge(21));
      expect((await signUpWith(dateFromToday(-21))).statusCode).toBe(201);
    } finally {
      await t.app.settings.update({ minimumAge: 18 });
    }
  });

  it("Google: a new account needs the date of birth and its age; an existing one signs in as before", async () => {
    const email = uniqueEmail("g-new");
    const sub = nextGoogleId();
    const ledgerBefore = await ledgerSize();

    const withoutDate = await googleSignIn(await google.sign({ sub, email }));
    expect(withoutDate.statusCode).toBe(400);
    expect(messageOf(withoutDate)).toBe(AGE_MESSAGES.googleNeedsDateOfBirth);
    expect(await rowsFor(email)).toHaveLength(0);

    const minor = await googleSignIn(await google.sign({ sub, email }), dateFromToday(-15));
    expect(minor.statusCode).toBe(403);
    expect(messageOf(minor)).toBe(AGE_MESSAGES.underAge(18));
    expect(await rowsFor(email)).toHaveLength(0);
    expect(await ledgerSize()).toBe(ledgerBefore);

    const bad = await googleSignIn(await google.sign({ sub, email }), "2001-02-29");
    expect(bad.statusCode).toBe(400);
    expect(messageOf(bad)).toMatch(/^dateOfBirth: /);

    const created = await googleSignIn(await google.sign({ sub, email }), ADULT_BIRTH_DATE);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().user).toMatchObject({ email, dateOfBirth: ADULT_BIRTH_DATE });

    // The existing account: no date needed, and a date sent does not change the stored one.
    const again = await googleSignIn(await google.sign({ sub, email }));
    expect(again.statusCode).toBe(200);
    expect(again.json().user.id).toBe(created.json().user.id);
    const withOtherDate = await googleSignIn(await google.sign({ sub, email }), "2015-01-01");
    expect(withOtherDate.statusCode).toBe(200);
    expect(withOtherDate.json().user.dateOfBirth).toBe(ADULT_BIRTH_DATE);

    // An e-mail account linked to Google on its first Google sign-in needs no date either.
    const existing = await signUp(t);
    const linked = await googleSignIn(
      await google.sign({ sub: nextGoogleId(), email: existing.user.email }),
    );
    expect(linked.statusCode).toBe(200);
    expect(linked.json().user.id).toBe(existing.user.id);
  });

  it("the fan cannot change the date of birth: the profile refuses it, the once-only call too", async () => {
    const fan = await signUp(t);
    const profile = await call(t, "PUT", "/api/users/profile", {
      token: fan.token,
      body: { name: "New Name", dateOfBirth: "2012-01-01" },
    });
    expect(profile.statusCode).toBe(400);
    expect(messageOf(profile)).toBe(`dateOfBirth: ${AGE_MESSAGES.cannotChange}`);
    const once = await call(t, "PUT", "/api/users/date-of-birth", {
      token: fan.token,
      body: { dateOfBirth: "2012-01-01" },
    });
    expect(once.statusCode).toBe(409);
    expect(messageOf(once)).toBe(AGE_MESSAGES.alreadyGiven);
    const me = await call(t, "GET", "/api/auth/me", { token: fan.token });
    expect(me.json().data).toMatchObject({ name: "Test User", dateOfBirth: ADULT_BIRTH_DATE });
  });

  it("the admin corrects the date of birth, recorded in the audit log with old and new", async () => {
    const admin = await adminSession(t);
    const fan = await signUp(t);
    const corrected = await call(t, "PUT", `/api/admin/users/${fan.user.id}/date-of-birth`, {
      token: admin.token,
      body: { dateOfBirth: "1985-02-28" },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json().data.dateOfBirth).toBe("1985-02-28");
    const details = await call(t, "GET", `/api/admin/users/${fan.user.id}`, { token: admin.token });
    expect(details.json().data.dateOfBirth).toBe("1985-02-28");

    const log = await call(t, "GET", "/api/admin/audit-log", {
      token: admin.token,
      query: { action: "user.date_of_birth", targetId: fan.user.id },
    });
    expect(log.json().data).toHaveLength(1);
    expect(log.json().data[0]).toMatchObject({
      action: "user.date_of_birth",
      targetType: "user",
      targetId: fan.user.id,
      before: { dateOfBirth: ADULT_BIRTH_DATE },
      after: { dateOfBirth: "1985-02-28" },
    });

    const future = await call(t, "PUT", `/api/admin/users/${fan.user.id}/date-of-birth`, {
      token: admin.token,
      body: { dateOfBirth: dateFromToday(0, 1) },
    });
    expect(future.statusCode).toBe(400);
    expect(messageOf(future)).toBe(`dateOfBirth: ${AGE_MESSAGES.inFuture}`);
    // A fan's token cannot use the admin's correction.
    const byFan = await call(t, "PUT", `/api/admin/users/${fan.user.id}/date-of-birth`, {
      token: fan.token,
      body: { dateOfBirth: "1980-01-01" },
    });
    expect(byFan.statusCode).toBe(403);
  });

  it("an account without a date of birth is asked for it before its next chat or call", async () => {
    const fan = await signUp(t);
    // As an account made before the age gate.
    await t.app.database.db
      .update(users)
      .set({ dateOfBirth: sql`null` })
      .where(eq(users.id, fan.user.id));
    const me = await call(t, "GET", "/api/auth/me", { token: fan.token });
    expect(me.json().data.dateOfBirth).toBeNull();

    const chat = await call(t, "POST", "/api/chat/message", {
      token: fan.token,
      body: { message: "Hello there" },
    });
    expect(chat.statusCode).toBe(428);
    expect(chat.json()).toEqual({
      success: false,
      message: AGE_MESSAGES.askedBeforeUse,
      error: { code: DATE_OF_BIRTH_REQUIRED_CODE },
    });
    const socket = await connectVoice(origin, fan.token);
    expect(await socket.next("error")).toEqual({
      type: "error",
      message: AGE_MESSAGES.askedBeforeUse,
    });
    expect(await socket.closed).toBe(VOICE_CLOSE_CODES.dateOfBirthRequired);

    const malformed = await call(t, "PUT", "/api/users/date-of-birth", {
      token: fan.token,
      body: { dateOfBirth: "1990-02-30" },
    });
    expect(malformed.statusCode).toBe(400);
    expect(messageOf(malformed)).toBe(`dateOfBirth: ${AGE_MESSAGES.malformed}`);

    const given = await call(t, "PUT", "/api/users/date-of-birth", {
      token: fan.token,
      body: { dateOfBirth: ADULT_BIRTH_DATE },
    });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json().user.dateOfBirth).toBe(ADULT_BIRTH_DATE);

    const chatAfter = await call(t, "POST", "/api/chat/message", {
      token: fan.token,
      body: { message: "Hello there" },
    });
    expect(chatAfter.statusCode, chatAfter.body).toBe(200);
    const callAfter = await connectVoice(origin, fan.token);
    await callAfter.next("call_started");
    callAfter.socket.close(VOICE_CLOSE_CODES.normal);
    await callAfter.closed;
  });

  it("a date given late that is under age is kept (no second try), and chat and calls stay shut", async () => {
    const fan = await signUp(t);
    await t.app.database.db
      .update(users)
      .set({ dateOfBirth: sql`null` })
      .where(eq(users.id, fan.user.id));
    const given = await call(t, "PUT", "/api/users/date-of-birth", {
      token: fan.token,
      body: { dateOfBirth: dateFromToday(-16) },
    });
    expect(given.statusCode).toBe(403);
    expect(messageOf(given)).toBe(AGE_MESSAGES.underAgeToUse(18));
    const retry = await call(t, "PUT", "/api/users/date-of-birth", {
      token: fan.token,
      body: { dateOfBirth: ADULT_BIRTH_DATE },
    });
    expect(retry.statusCode).toBe(409);
    const chat = await call(t, "POST", "/api/chat/message", {
      token: fan.token,
      body: { message: "Hello there" },
    });
    expect(chat.statusCode).toBe(403);
    expect(messageOf(chat)).toBe(AGE_MESSAGES.underAgeToUse(18));
    const socket = await connectVoice(origin, fan.token);
    expect((await socket.next("error")).message).toBe(AGE_MESSAGES.underAgeToUse(18));
    expect(await socket.closed).toBe(VOICE_CLOSE_CODES.underAge);
  });
});
