import {
  createMemoryStore,
  createStripeEmulator,
  type Json,
  type StripeEmulator,
  StripeObjects,
} from "@twinline/stripe-emulator";
import { type FakeHttpServer, sendJson, startFakeHttpServer } from "./http.ts";

/**
 * A local server speaking the parts of Stripe's API this app calls (API 2026 shapes: periods on
 * subscription items, invoice.parent.subscription_details, invoice.payments): the Stripe
 * emulator (@twinline/stripe-emulator, decision 0094) over HTTP with its state in memory, so
 * the official `stripe` SDK runs against it through STRIPE_API_BASE. Test controls (completing a
 * checkout, renewing, failing a payment) change the state as Stripe would and answer the objects
 * a webhook would carry; tests sign the events themselves.
 */

export { parseStripeForm } from "@twinline/stripe-emulator";

export const FAKE_STRIPE_SECRET_KEY = "sk_test_fake_stripe_key_1234567890";

/** The emulator's test controls, as the fake's tests call them (documented on StripeEmulator). */
type TestControls = Pick<
  StripeEmulator,
  | "rounding"
  | "refundInDashboard"
  | "openDispute"
  | "chargeOf"
  | "completeCheckout"
  | "failCheckoutAttempt"
  | "failDelayedPayment"
  | "expireCheckout"
  | "renew"
  | "failRenewal"
  | "endSubscription"
  | "event"
>;

export interface FakeStripe extends FakeHttpServer, TestControls {
  products: Map<string, Json>;
  prices: Map<string, Json>;
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  invoices: Map<string, Json>;
  /** Customers with their balance (negative: account credit for the next invoice). */
  customers: Map<string, Json>;
  /** Checkout's payment intents (payment mode), made at a session's first attempt. */
  paymentIntents: Map<string, Json>;
  /** One charge per paid payment intent, keyed by the payment intent (a snapshot). */
  readonly charges: Map<string, Json>;
  refunds: Map<string, Json>;
  disputes: Map<string, Json>;
  /** Coupons and the promotion codes on them (percent_off or amount_off, duration once). */
  coupons: Map<string, Json>;
  promotionCodes: Map<string, Json>;
}

export async function startFakeStripe(options: { secretKey?: string } = {}): Promise<FakeStripe> {
  const store = createMemoryStore();
  const emulator = createStripeEmulator({
    secretKey: options.secretKey ?? FAKE_STRIPE_SECRET_KEY,
    store,
  });
  // One request or control at a time, as Stripe's own ordering of one account's writes looks
  // to this app's tests (the emulator's compare-and-set covers instances sharing a store).
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const done = queue.then(work);
    queue = done.catch(() => undefined);
    return done;
  };
  /** The object the Maps hold (what a test reads live), for the copy a control answers. */
  const live = (object: Json): Json =>
    store.objects(String(object.object)).get(String(object.id)) ?? object;
  const liveAll = <T extends Record<string, Json | undefined>>(objects: T): T =>
    Object.fromEntries(
      Object.entries(objects).map(([name, object]) => [name, object && live(object)]),
    ) as T;

  const server = await startFakeHttpServer(async (request, response, raw) => {
    const answer = await serially(() =>
      emulator.handle({
        method: request.method,
        url: raw.url ?? "/",
        body: request.body.toString(),
        headers: request.headers,
      }),
    );
    sendJson(response, answer.status, answer.body);
  });

  return {
    ...server,
    rounding: emulator.rounding,
    products: store.objects(StripeObjects.product),
    prices: store.objects(StripeObjects.price),
    sessions: store.objects(StripeObjects.session),
    subscriptions: store.objects(StripeObjects.subscription),
    invoices: store.objects(StripeObjects.invoice),
    customers: store.objects(StripeObjects.customer),
    paymentIntents: store.objects(StripeObjects.paymentIntent),
    get charges() {
      const paid = [...store.objects(StripeObjects.charge).values()].filter((each) => each.paid);
      return new Map(paid.map((each) => [String(each.payment_intent), each]));
    },
    refunds: store.objects(StripeObjects.refund),
    disputes: store.objects(StripeObjects.dispute),
    coupons: store.objects(StripeObjects.coupon),
    promotionCodes: store.objects(StripeObjects.promotionCode),
    chargeOf: (paymentIntentId) => serially(() => emulator.chargeOf(paymentIntentId)),
    refundInDashboard: (paymentIntentId, amount) =>
      serially(async () => {
        const { charge, refund } = await emulator.refundInDashboard(paymentIntentId, amount);
        return { charge, refund: live(refund) };
      }),
    openDispute: (paymentIntentId, amount) =>
      serially(async () => live(await emulator.openDispute(paymentIntentId, amount))),
    completeCheckout: (sessionId) =>
      serially(async () => liveAll(await emulator.completeCheckout(sessionId))),
    failCheckoutAttempt: (sessionId, error) =>
      serially(() => emulator.failCheckoutAttempt(sessionId, error)),
    failDelayedPayment: (sessionId) =>
      serially(async () => {
        const { session, paymentIntent } = await emulator.failDelayedPayment(sessionId);
        return { session: live(session), paymentIntent };
      }),
    expireCheckout: (sessionId) =>
      serially(async () => live(await emulator.expireCheckout(sessionId))),
    renew: (subscriptionId) => serially(async () => liveAll(await emulator.renew(subscriptionId))),
    failRenewal: (subscriptionId) =>
      serially(async () => liveAll(await emulator.failRenewal(subscriptionId))),
    endSubscription: (subscriptionId) =>
      serially(async () => live(await emulator.endSubscription(subscriptionId))),
    event: (type, object) => emulator.event(type, object),
  };
}
