import { CONSENT_VERSIONS } from "@twinline/contracts";
import { FAKE_STRIPE_SECRET_KEY, type FakeStripe, startFakeStripe } from "@twinline/fakes";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { payments } from "../src/db/schema/index.ts";
import { adminSession, call, signUp } from "./accounts.ts";
import { createPackage, createPlan } from "./billing.ts";
import { createTestApp, type TestApp, type TestAppOptions } from "./create-test-app.ts";
import { WEBHOOK_SECRET } from "./stripe-signature.ts";
import { deliver } from "./stripe-webhooks.ts";

/** The app's environment for Stripe at the local fake: its key, its address, the webhook secret. */
export const stripeEnv = (fake: FakeStripe): NodeJS.ProcessEnv => ({
  STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
  STRIPE_API_BASE: fake.origin,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  PUBLIC_URL: "https://twinline.example",
});

export interface StripeTestApp {
  t: TestApp;
  fake: FakeStripe;
  close(): Promise<void>;
}

/** A test app that bills with the real Stripe SDK against a local fake Stripe. */
export async function createStripeTestApp(options: TestAppOptions = {}): Promise<StripeTestApp> {
  const fake = await startFakeStripe();
  try {
    const t = await createTestApp({ ...options, env: { ...options.env, ...stripeEnv(fake) } });
    return {
      t,
      fake,
      async close() {
        await t.close();
        await fake.close();
      },
    };
  } catch (error) {
    await fake.close();
    throw error;
  }
}

/** What a Stripe suite's tests share: the app, the fake Stripe, and a signed-in admin. */
export interface StripeSuite {
  t: TestApp;
  fake: FakeStripe;
  /** The admin's bearer token. */
  admin: string;
  adminAccount: Awaited<ReturnType<typeof adminSession>>;
}

/**
 * Registers the current describe block's hooks: before all, a Stripe test app with an admin
 * signed in, handed to `bind` (the suite keeps them in its own variables, so its tests read as
 * before); after all, the app and the fake closed. Options may be a function, read in the hook,
 * for values an earlier hook makes.
 */
export function useStripeSuite(
  bind: (suite: StripeSuite) => void,
  options: TestAppOptions | (() => TestAppOptions) = {},
): void {
  let stripe: StripeTestApp | undefined;
  beforeAll(async () => {
    stripe = await createStripeTestApp(typeof options === "function" ? options() : options);
    const adminAccount = await adminSession(stripe.t);
    bind({ t: stripe.t, fake: stripe.fake, admin: adminAccount.token, adminAccount });
  });
  afterAll(async () => {
    await stripe?.close();
  });
}

type SuiteParts = Pick<StripeSuite, "t" | "fake" | "admin">;
type Json = Record<string, unknown>;

/** Checkout at `path` as `token`, paid at the fake Stripe, and each webhook event named delivered. */
async function paidCheckout(
  { t, fake }: SuiteParts,
  token: string,
  path: string,
  body: object,
  events: (done: Awaited<ReturnType<FakeStripe["completeCheckout"]>>) => Json[],
) {
  const checkout = await call(t, "POST", path, { token, body });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const done = await fake.completeCheckout(checkout.json().sessionId);
  for (const event of events(done)) {
    const answer = await deliver(t, event);
    expect(answer.statusCode, answer.body).toBe(200);
  }
  return done;
}

/**
 * A new fan who bought a new package through Stripe Checkout, its completion webhook delivered:
 * the fan, the payment row, and Stripe's payment intent id.
 */
export async function stripeBuyer(
  suite: SuiteParts,
  pack: { name: string; credits: number; price: number },
) {
  const { t, fake, admin } = suite;
  const created = await createPackage(t, admin, pack);
  const fan = await signUp(t);
  await paidCheckout(
    suite,
    fan.token,
    "/api/payments/create-checkout-session",
    { packageId: created._id, consentVersion: CONSENT_VERSIONS.credits },
    (done) => [fake.event("checkout.session.completed", done.session)],
  );
  const [payment] = await t.app.database.db
    .select()
    .from(payments)
    .where(eq(payments.userId, fan.user.id));
  if (!payment?.stripePaymentId) throw new Error("no payment row");
  return { fan, payment, paymentIntent: payment.stripePaymentId };
}

/**
 * A new fan subscribed to a new plan through Stripe Checkout, the three webhooks Stripe sends
 * (session completed, subscription created, first invoice paid) delivered: the fan, the plan, and
 * what the fake Stripe made (session, subscription, invoice).
 */
export async function stripeSubscriber(
  suite: SuiteParts,
  plan: { name: string; price: number; credits?: number },
) {
  const { t, fake, admin } = suite;
  const created = await createPlan(t, admin, plan);
  const fan = await signUp(t);
  const done = await paidCheckout(
    suite,
    fan.token,
    "/api/subscriptions/create-checkout",
    { planId: created._id, consentVersion: CONSENT_VERSIONS.plan },
    (paid) => [
      fake.event("checkout.session.completed", paid.session),
      fake.event("customer.subscription.created", paid.subscription as Json),
      fake.event("invoice.paid", paid.invoice as Json),
    ],
  );
  return { fan, plan: created, done };
}
