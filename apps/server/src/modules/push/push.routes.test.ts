import {
  DELETE_CONFIRMATION_WORD,
  PUSH_NOTICE_TEXT,
  type PushPayload,
  SANDBOX_CARDS,
} from "@twinline/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../test/accounts.ts";
import { createPlan, sandboxBuy } from "../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { signUpWithCredits } from "../../../test/credits.ts";
import { createManualClock } from "../../../test/manual-clock.ts";
import {
  type LocalPushService,
  startLocalPushService,
  type TestPushSubscription,
} from "../../../test/push-service.ts";
import { pushNotices, pushSubscriptions } from "../../db/schema/index.ts";
import { applyCreditMovement } from "../credits/ledger.ts";

/**
 * Issue 27 item 3: Web Push, against a real local push service (web-push-testing), which checks
 * each push's VAPID token and decrypts its payload as a browser's push service would.
 */
describe("web push notifications", () => {
  const clock = createManualClock();
  let t: TestApp;
  let pushService: LocalPushService;
  let publicKey: string;
  let admin: string;
  let personaName: string;

  beforeAll(async () => {
    pushService = await startLocalPushService();
    t = await createTestApp({
      billingClock: clock,
      billingSweeps: false,
      env: { WEB_PUSH_HTTP_ORIGIN: pushService.origin },
    });
    admin = (await adminSession(t)).token;
    await t.app.settings.update({ freeMessagesPerDay: 1_000 });
    personaName = (await t.app.settings.get()).aiProfile.name;
    const fan = await signUp(t);
    publicKey = (await call(t, "GET", "/api/push", { token: fan.token })).json().data.publicKey;
  });
  afterAll(async () => {
    await t?.close();
    await pushService?.close();
  });

  /** Every notice queued so far has gone to the push service. */
  const settle = async () => {
    await t.app.push.idle();
    await t.app.push.service.sendDue();
  };
  const received = async (device: TestPushSubscription): Promise<PushPayload[]> =>
    (await pushService.received(device.clientHash)).map((text) => JSON.parse(text));
  const optIn = async (token: string) => {
    const device = await pushService.subscribe(publicKey);
    const response = await call(t, "POST", "/api/push/subscriptions", {
      token,
      body: { endpoint: device.endpoint, expirationTime: null, keys: device.keys },
    });
    expect(response.statusCode, response.body).toBe(200);
    return device;
  };
  const chat = async (token: string) => {
    const response = await call(t, "POST", "/api/chat/message", {
      token,
      body: { message: "Tell me something" },
    });
    expect(response.statusCode, response.body).toBe(200);
    await settle();
  };
  /** Moves the fan's latest notice of a kind back in time (the caps read its age). */
  const ageLatest = async (userId: string, kind: string, interval: string) => {
    await t.app.database.db.execute(sql`
      update ${pushNotices} set created_at = now() - ${interval}::interval
      where user_id = ${userId}::uuid and kind = ${kind}`);
  };

  it("a fan who never opted in gets nothing queued, whatever happens", async () => {
    const fan = await signUpWithCredits(t, 10);
    await chat(fan.token);
    await applyCreditMovement(t.app.database.db, {
      userId: fan.user.id,
      kind: "admin_adjustment",
      amount: -8,
      sourceKey: `test:never:${fan.user.id}`,
    });
    const queued = await t.app.database.db
      .select()
      .from(pushNotices)
      .where(eq(pushNotices.userId, fan.user.id));
    expect(queued).toEqual([]);
    const state = (await call(t, "GET", "/api/push", { token: fan.token })).json().data;
    expect(state).toEqual({
      publicKey,
      preferences: { reply: true, lowBalance: true, renewalFailed: true },
      devices: 0,
    });
  });

  it("a fan who chatted without a device and then opts in is notified of the next reply", async () => {
    const fan = await signUp(t);
    // Replies with no device: the app remembers the fan has none (no statement per reply).
    await chat(fan.token);
    await chat(fan.token);
    const device = await optIn(fan.token);
    await chat(fan.token);
    expect((await received(device)).map((payload) => payload.kind)).toEqual(["reply"]);
  });

  it("a reply while the fan is away arrives once per 10 minutes; never while a tab is visible", async () => {
    const fan = await signUp(t);
    const device = await optIn(fan.token);
    expect((await call(t, "GET", "/api/push", { token: fan.token })).json().data.devices).toBe(1);

    // A tab is visible: no notification.
    await call(t, "PUT", "/api/push/presence", { token: fan.token, body: { visible: true } });
    await chat(fan.token);
    expect(await received(device)).toEqual([]);

    // The fan left the tab: the reply is announced, without its words.
    await call(t, "PUT", "/api/push/presence", { token: fan.token, body: { visible: false } });
    await chat(fan.token);
    expect(await received(device)).toEqual([
      {
        kind: "reply",
        title: PUSH_NOTICE_TEXT.reply(personaName),
        body: "Tap to read it.",
        url: "/dashboard/chat",
        tag: "reply",
      },
    ]);

    // The cap: the next reply within 10 minutes says nothing...
    await chat(fan.token);
    await ageLatest(fan.user.id, "reply", "9 minutes 59 seconds");
    await chat(fan.token);
    expect(await received(device)).toHaveLength(1);
    // ...and the first after 10 minutes does.
    await ageLatest(fan.user.id, "reply", "10 minutes 1 second");
    await chat(fan.token);
    expect(await received(device)).toHaveLength(2);
  });

  it("a kind switched off in the preferences sends nothing", async () => {
    const fan = await signUp(t);
    const device = await optIn(fan.token);
    const saved = await call(t, "PUT", "/api/push/preferences", {
      token: fan.token,
      body: { reply: false, lowBalance: true, renewalFailed: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toEqual({ reply: false, lowBalance: true, renewalFailed: true });
    await chat(fan.token);
    expect(await received(device)).toEqual([]);
    expect(
      (await call(t, "GET", "/api/push", { token: fan.token })).json().data.preferences,
    ).toEqual({ reply: false, lowBalance: true, renewalFailed: true });
  });

  it("low balance: the crossing below one call minute, at most once a day", async () => {
    const fan = await signUpWithCredits(t, 10);
    const device = await optIn(fan.token);
    let step = 0;
    const move = async (amount: number) => {
      step += 1;
      await applyCreditMovement(t.app.database.db, {
        userId: fan.user.id,
        kind: "admin_adjustment",
        amount,
        sourceKey: `test:low:${fan.user.id}:${step}`,
      });
      await settle();
    };
    await move(-5); // 10 -> 5: still one minute's worth (5 a minute), no warning.
    expect(await received(device)).toEqual([]);
    await move(-1); // 5 -> 4: low.
    expect(await received(device)).toEqual([
      {
        kind: "lowBalance",
        title: PUSH_NOTICE_TEXT.lowBalance,
        body: "You have 4 credits: a call minute costs 5.",
        url: "/dashboard/credits",
        tag: "lowBalance",
      },
    ]);
    // Topped up and low again the same day: nothing more.
    await move(6);
    await move(-6);
    await ageLatest(fan.user.id, "lowBalance", "23 hours 59 minutes");
    await move(6);
    await move(-6);
    expect(await received(device)).toHaveLength(1);
    // A day later it warns again.
    await ageLatest(fan.user.id, "lowBalance", "24 hours 1 minute");
    await move(6);
    await move(-6);
    expect((await received(device)).map((payload) => payload.body)).toEqual([
      "You have 4 credits: a call minute costs 5.",
      "You have 4 credits: a call minute costs 5.",
    ]);
  });

  it("a failed renewal is notified once, whatever the retries that day", async () => {
    const plan = await createPlan(t, admin, { name: "Fan Club", price: 9.99, credits: 50 });
    const fan = await signUp(t);
    const device = await optIn(fan.token);
    await sandboxBuy(t, fan.token, { planId: plan._id });
    const mine = async () =>
      (await call(t, "GET", "/api/subscriptions/my-subscription", { token: fan.token })).json()
        .data;
    const subscriptionId = (await mine()).stripeSubscriptionId;
    await t.app.billing.sandbox.updateCard(subscriptionId, SANDBOX_CARDS.declined);
    await clock.advance(Date.parse((await mine()).endDate) - clock.now() + 1000);
    expect((await t.app.billing.renewals.sweep()).past_due).toBe(1);
    await settle();
    // The provider's retry a day later (the database's day has not passed: capped).
    await clock.advance(86_400_000);
    expect((await t.app.billing.renewals.sweep()).unpaid).toBe(1);
    await settle();
    const renewals = (await received(device)).filter((p) => p.kind === "renewalFailed");
    expect(renewals).toEqual([
      {
        kind: "renewalFailed",
        title: PUSH_NOTICE_TEXT.renewalFailed,
        body: PUSH_NOTICE_TEXT.renewalFailedBody("Fan Club"),
        url: "/dashboard/credits",
        tag: "renewalFailed",
      },
    ]);
  });

  it("a subscription the push service answers 410 for is deleted", async () => {
    const fan = await signUp(t);
    const device = await optIn(fan.token);
    await pushService.expire(device.clientHash);
    await chat(fan.token);
    const left = await t.app.database.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, fan.user.id));
    expect(left).toEqual([]);
    expect((await call(t, "GET", "/api/push", { token: fan.token })).json().data.devices).toBe(0);
  });

  it("unsubscribing stops the device; deleting the account deletes its subscriptions", async () => {
    const fan = await signUp(t);
    const device = await optIn(fan.token);
    const off = await call(t, "DELETE", "/api/push/subscriptions", {
      token: fan.token,
      body: { endpoint: device.endpoint },
    });
    expect(off.statusCode, off.body).toBe(200);
    await chat(fan.token);
    expect(await received(device)).toEqual([]);

    await optIn(fan.token);
    const deleted = await call(t, "POST", "/api/users/delete-account", {
      token: fan.token,
      body: { confirmation: DELETE_CONFIRMATION_WORD, password: fan.password },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const left = await t.app.database.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, fan.user.id));
    expect(left).toEqual([]);
  });

  it("bad input is refused with 400 naming the field; no token is 401", async () => {
    const fan = await signUp(t);
    const device = await pushService.subscribe(publicKey);
    const subscribe = (body: unknown) =>
      call(t, "POST", "/api/push/subscriptions", { token: fan.token, body });
    const cases: Array<[unknown, string]> = [
      [{ keys: device.keys }, "endpoint"],
      [{ endpoint: "not a url", keys: device.keys }, "endpoint"],
      [{ endpoint: "http://push.example.com/x", keys: device.keys }, "endpoint"],
      [{ endpoint: "ftp://push.example.com/x", keys: device.keys }, "endpoint"],
      [{ endpoint: `https://push.example.com/${"a".repeat(1000)}`, keys: device.keys }, "endpoint"],
      [{ endpoint: device.endpoint }, "keys"],
      [{ endpoint: device.endpoint, keys: { ...device.keys, p256dh: "short" } }, "keys.p256dh"],
      [{ endpoint: device.endpoint, keys: { ...device.keys, auth: "%%%%" } }, "keys.auth"],
    ];
    for (const [body, field] of cases) {
      const response = await subscribe(body);
      expect(response.statusCode, response.body).toBe(400);
      expect(messageOf(response)).toContain(field);
    }
    const preferences = await call(t, "PUT", "/api/push/preferences", {
      token: fan.token,
      body: { reply: "yes", lowBalance: true, renewalFailed: true },
    });
    expect(preferences.statusCode).toBe(400);
    expect(messageOf(preferences)).toContain("reply");
    const presence = await call(t, "PUT", "/api/push/presence", { token: fan.token, body: {} });
    expect(presence.statusCode).toBe(400);
    expect(messageOf(presence)).toContain("visible");
    expect((await call(t, "GET", "/api/push")).statusCode).toBe(401);
    // Nothing of that was stored.
    expect((await call(t, "GET", "/api/push", { token: fan.token })).json().data.devices).toBe(0);
  });
});
