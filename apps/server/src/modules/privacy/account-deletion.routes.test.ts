import type { AddressInfo } from "node:net";
import {
  adminCreditTransactionsResponseSchema,
  PRIVACY_MESSAGES,
  VOICE_CLOSE_CODES,
  VOICE_MESSAGES,
} from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, PASSWORD, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { signUpWithCredits } from "../../../test/credits.ts";
import { seedFan } from "../../../test/fan-data.ts";
import { fakeGoogle, TEST_GOOGLE_CLIENT_ID } from "../../../test/google.ts";
import { createManualClock } from "../../../test/manual-clock.ts";
import { countTables, sweepEveryTable } from "../../../test/personal-data-sweep.ts";
import { stripeSubscriber, useStripeSuite } from "../../../test/stripe-app.ts";
import { deliver } from "../../../test/stripe-webhooks.ts";
import { connectVoice } from "../../../test/voice-client.ts";
import {
  adminAuditLog,
  creditLedger,
  payments,
  subscriptionEvents,
  userSubscriptions,
  users,
  voiceCalls,
} from "../../db/schema/index.ts";

const DELETE = "DELETE";

describe("delete my account (sandbox)", () => {
  let t: TestApp;
  let origin: string;
  let admin: Awaited<ReturnType<typeof adminSession>>;
  const google = fakeGoogle();

  beforeAll(async () => {
    t = await createTestApp({
      voiceClock: createManualClock(),
      googleVerifier: google.verifier,
      env: { GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID },
    });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = await adminSession(t);
  });
  afterAll(() => t?.close());

  const db = () => t.app.database.db;

  it("asks for the password and the word DELETE, and keeps the account on a refusal", async () => {
    const fan = await signUp(t);
    const url = "/api/users/delete-account";
    const noWord = await call(t, "POST", url, { token: fan.token, body: { password: PASSWORD } });
    expect(noWord.statusCode).toBe(400);
    expect(noWord.body).toContain("confirmation");
    const lower = await call(t, "POST", url, {
      token: fan.token,
      body: { password: PASSWORD, confirmation: "delete" },
    });
    expect(lower.statusCode).toBe(400);
    const noPassword = await call(t, "POST", url, {
      token: fan.token,
      body: { confirmation: DELETE },
    });
    expect(noPassword.statusCode).toBe(400);
    expect(messageOf(noPassword)).toBe(PRIVACY_MESSAGES.deletePasswordRequired);
    const wrong = await call(t, "POST", url, {
      token: fan.token,
      body: { confirmation: DELETE, password: "not the password" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(messageOf(wrong)).toBe(PRIVACY_MESSAGES.deleteWrongPassword);
    const me = await call(t, "GET", "/api/auth/me", { token: fan.token });
    expect(me.statusCode).toBe(200);
  });

  it("erases every trace of the fan: a sweep of every table finds neither id, e-mail nor words; payments stay detached", async () => {
    const fan = await seedFan(t, admin.token);
    // An admin's earlier act on the fan, whose audit entry named them.
    const adjusted = await call(t, "POST", `/api/admin/users/${fan.id}/credits`, {
      token: admin.token,
      body: { delta: 5, reason: "Goodwill" },
    });
    expect(adjusted.statusCode, adjusted.body).toBe(200);
    const asked = await call(t, "POST", "/api/users/data-export", { token: fan.token });
    expect(asked.statusCode).toBe(202);
    await t.app.dataExports.settled();
    const exportId = asked.json().data._id as string;
    expect(await t.app.uploads.privateFiles.stat(`${exportId}.zip`)).toBeDefined();
    const [subscription] = await db()
      .select()
      .from(userSubscriptions)
      .where(eq(userSubscriptions.userId, fan.id));
    if (!subscription) throw new Error("no subscription");
    const paymentsBefore = await db().select().from(payments).where(eq(payments.userId, fan.id));
    expect(paymentsBefore).toHaveLength(2);
    // Another fan's data, which must stay whole.
    const other = await seedFan(t, admin.token, { plan: false });

    const deleted = await call(t, "POST", "/api/users/delete-account", {
      token: fan.token,
      body: { confirmation: DELETE, password: fan.password },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(messageOf(deleted)).toBe(PRIVACY_MESSAGES.deleted);

    // The session is over.
    expect((await call(t, "GET", "/api/auth/me", { token: fan.token })).statusCode).toBe(401);
    const login = await call(t, "POST", "/api/auth/login", {
      body: { email: fan.email, password: fan.password },
    });
    expect(login.statusCode).toBe(401);

    // The subscription was ended at the provider at once: no further charge.
    const atProvider = await t.app.billing.sandbox.retrieveSubscription(
      subscription.providerSubscriptionId,
    );
    expect(atProvider?.status).toBe("canceled");

    // Every table, every column: the id, the e-mail and the words are gone. The audit log
    // keeps the id of the account it acted on, in its target and the request's path (a key to
    // nothing now; decision 0063), never the e-mail or the name.
    const compactId = fan.id.replaceAll("-", "");
    const findings = await sweepEveryTable(t, [fan.id, compactId, fan.email, fan.word]);
    const allowed = findings.filter(
      (f) =>
        f.table === "admin_audit_log" &&
        (f.column === `target_id ∋ ${fan.id}` || f.column === `path ∋ ${fan.id}`),
    );
    expect(allowed.length).toBeGreaterThan(0);
    expect(findings.filter((f) => !allowed.includes(f))).toEqual([]);
    expect(await countTables(t)).toBeGreaterThan(25);
    // The sweep does find what is there: the other fan.
    const otherFindings = await sweepEveryTable(t, [other.email, other.word]);
    expect(otherFindings.map((f) => f.table)).toEqual(
      expect.arrayContaining(["users", "chat_messages"]),
    );

    // Accounting keeps the payments, their ledger entries and the subscription, detached.
    const kept = await db()
      .select()
      .from(payments)
      .where(and(isNull(payments.userId), eq(payments.id, paymentsBefore[0]?.id ?? "")));
    expect(kept).toHaveLength(1);
    const detachedLedger = await db()
      .select({ kind: creditLedger.kind })
      .from(creditLedger)
      .where(isNull(creditLedger.userId));
    expect(detachedLedger.map((row) => row.kind)).toEqual(
      expect.arrayContaining(["purchase", "subscription_grant"]),
    );
    expect(detachedLedger.map((row) => row.kind)).not.toContain("grant");
    const [keptSubscription] = await db()
      .select()
      .from(userSubscriptions)
      .where(eq(userSubscriptions.id, subscription.id));
    expect(keptSubscription).toMatchObject({ userId: null, status: "canceled" });
    const history = await db()
      .select()
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, subscription.id));
    expect(history.every((event) => event.userId === null)).toBe(true);
    // The admin's list shows them as "Deleted user" (no user attached).
    const list = await call(t, "GET", "/api/admin/credit-transactions", { token: admin.token });
    const rows = adminCreditTransactionsResponseSchema.parse(list.json()).data;
    const row = rows.find((r) => r._id === paymentsBefore.find((p) => p.kind === "credits")?.id);
    expect(row?.userId).toBeNull();
    // The export's file is gone.
    expect(await t.app.uploads.privateFiles.stat(`${exportId}.zip`)).toBeUndefined();

    // The e-mail can sign up again, as a new account.
    const again = await signUp(t, { email: fan.email, name: "Back Again" });
    expect(again.user.id).not.toBe(fan.id);
    expect(again.user.credits).toBe(100);
    const conversationsNow = await call(t, "GET", "/api/chat/conversations", {
      token: again.token,
    });
    expect(conversationsNow.json().data).toEqual([]);
  });

  it("ends a live call at once (4401, reason session) and charges nothing more", async () => {
    const fan = await signUpWithCredits(t, 50);
    const client = await connectVoice(origin, fan.token);
    await client.next("call_started");
    const [open] = await db()
      .select()
      .from(voiceCalls)
      .where(and(eq(voiceCalls.userId, fan.user.id), isNull(voiceCalls.endedAt)));
    expect(open).toBeDefined();
    const deleted = await call(t, "POST", "/api/users/delete-account", {
      token: fan.token,
      body: { confirmation: DELETE, password: PASSWORD },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await client.next("call_ended")).toEqual({
      type: "call_ended",
      message: VOICE_MESSAGES.unauthorized,
      reason: "session",
    });
    expect(await client.closed).toBe(VOICE_CLOSE_CODES.sessionEnded);
    expect(
      await db()
        .select()
        .from(voiceCalls)
        .where(eq(voiceCalls.id, open?.id ?? "")),
    ).toEqual([]);
    expect(await db().select().from(users).where(eq(users.id, fan.user.id))).toEqual([]);
  });

  it("confirms a Google-only account with a fresh Google sign-in of that account", async () => {
    const email = `g-${Date.now()}@example.com`;
    const token = await google.sign({ sub: `google-${Date.now()}`, email, name: "G Fan" });
    const signIn = await call(t, "POST", "/api/auth/google", {
      body: { token, dateOfBirth: "1990-01-01" },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const session = signIn.json().token as string;
    const stranger = await google.sign({ sub: "someone-else", email: "else@example.com" });
    const mismatch = await call(t, "POST", "/api/users/delete-account", {
      token: session,
      body: { confirmation: DELETE, googleToken: stranger },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(messageOf(mismatch)).toBe(PRIVACY_MESSAGES.deleteGoogleMismatch);
    const fresh = await google.sign({ sub: signIn.json().user.googleId ?? "", email });
    const ok = await call(t, "POST", "/api/users/delete-account", {
      token: session,
      body: { confirmation: DELETE, googleToken: fresh },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("lets the admin delete on the fan's request, audited, and never an admin", async () => {
    const fan = await seedFan(t, admin.token, { plan: false });
    const noWord = await call(t, "DELETE", `/api/admin/users/${fan.id}`, {
      token: admin.token,
      body: {},
    });
    expect(noWord.statusCode).toBe(400);
    const done = await call(t, "DELETE", `/api/admin/users/${fan.id}`, {
      token: admin.token,
      body: { confirmation: DELETE },
    });
    expect(done.statusCode, done.body).toBe(200);
    const entries = await db()
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, fan.id), eq(adminAuditLog.action, "user.delete")));
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries[0])).not.toContain(fan.email);
    const findings = await sweepEveryTable(t, [fan.email, fan.word]);
    expect(findings).toEqual([]);
    const gone = await call(t, "DELETE", `/api/admin/users/${fan.id}`, {
      token: admin.token,
      body: { confirmation: DELETE },
    });
    expect(gone.statusCode).toBe(404);
    const adminItself = await call(t, "DELETE", `/api/admin/users/${admin.id}`, {
      token: admin.token,
      body: { confirmation: DELETE },
    });
    expect(adminItself.statusCode).toBe(403);
  });
});

describe("delete my account (Stripe)", () => {
  let t: TestApp;
  let fake: FakeStripe;
  let adminToken: string;
  useStripeSuite((suite) => {
    ({ t, fake, admin: adminToken } = suite);
  });

  it("cancels the subscription at Stripe at once; Stripe's later events leave the record detached", async () => {
    const { fan, done } = await stripeSubscriber(
      { t, fake, admin: adminToken },
      { name: "Stripe Monthly", price: 10 },
    );
    const subscriptionId = String((done.subscription as { id: string }).id);
    expect(fake.subscriptions.get(subscriptionId)?.status).toBe("active");

    const deleted = await call(t, "POST", "/api/users/delete-account", {
      token: fan.token,
      body: { confirmation: DELETE, password: fan.password },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(fake.subscriptions.get(subscriptionId)?.status).toBe("canceled");

    // Stripe then tells of the cancellation: the kept record stays detached, nothing fails.
    const after = await deliver(
      t,
      fake.event(
        "customer.subscription.deleted",
        fake.subscriptions.get(subscriptionId) as Record<string, unknown>,
      ),
    );
    expect(after.statusCode, after.body).toBe(200);
    const [row] = await t.app.database.db
      .select()
      .from(userSubscriptions)
      .where(eq(userSubscriptions.providerSubscriptionId, subscriptionId));
    expect(row).toMatchObject({ userId: null, status: "canceled" });
    const again = await signUp(t, { email: fan.user.email });
    expect(again.user.id).not.toBe(fan.user.id);
  });
});
