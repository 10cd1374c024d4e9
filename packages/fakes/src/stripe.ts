import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import {
  type FakeHttpServer,
  type RecordedRequest,
  sendJson,
  startFakeHttpServer,
} from "./http.ts";

/**
 * A local server speaking the parts of Stripe's API this app calls (API 2026 shapes: periods on
 * subscription items, invoice.parent.subscription_details, invoice.payments), state in memory, so
 * the official `stripe` SDK runs against it through STRIPE_API_BASE. Test controls (completing a
 * checkout, renewing, failing a payment) change the state as Stripe would and answer the objects
 * a webhook would carry; tests sign the events themselves.
 */

type Json = Record<string, unknown>;

export const FAKE_STRIPE_SECRET_KEY = "sk_test_fake_stripe_key_1234567890";

export interface FakeStripe extends FakeHttpServer {
  products: Map<string, Json>;
  prices: Map<string, Json>;
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  invoices: Map<string, Json>;
  /** Customers with their balance (negative: account credit for the next invoice). */
  customers: Map<string, Json>;
  /** Checkout's payment intents (payment mode), made at a session's first attempt. */
  paymentIntents: Map<string, Json>;
  /** One charge per paid payment intent, keyed by the payment intent. */
  charges: Map<string, Json>;
  refunds: Map<string, Json>;
  disputes: Map<string, Json>;
  /** Coupons and the promotion codes on them (percent_off or amount_off, duration once). */
  coupons: Map<string, Json>;
  promotionCodes: Map<string, Json>;
  /**
   * How a percentage off rounds a half minor unit: "up" (the default) or "even". Stripe's rule is
   * its own; a test sets the other one to show that the app sells what Stripe charges.
   */
  rounding: { percentHalf: "up" | "even" };
  /** A refund made in Stripe's dashboard (no metadata): the charge, refreshed, and the refund. */
  refundInDashboard(paymentIntentId: string, amount?: number): { charge: Json; refund: Json };
  /** A dispute opened by the card holder's bank on a payment. */
  openDispute(paymentIntentId: string, amount?: number): Json;
  /** The charge of a payment intent. */
  chargeOf(paymentIntentId: string): Json;
  /** Pays an open checkout session (and, in subscription mode, starts the subscription). */
  completeCheckout(sessionId: string): { session: Json; subscription?: Json; invoice?: Json };
  /**
   * A payment attempt at an open checkout session (payment mode) that fails, as Checkout makes
   * one: the session's payment intent (made at its first attempt, confirmed again by each retry)
   * goes back to requires_payment_method with the attempt's `last_payment_error` (a declined card
   * by default, `error` overrides its fields) and a failed charge; the session stays open.
   * Answers a copy of the payment intent as the payment_intent.payment_failed event carries it:
   * the live one forgets the error at the next attempt.
   */
  failCheckoutAttempt(sessionId: string, error?: Json): Json;
  /**
   * A delayed payment (a bank debit) submitted at checkout that fails days later: the session
   * complete and unpaid, its payment intent requires_payment_method with an error that names no
   * charge. Answers both objects, as checkout.session.async_payment_failed and
   * payment_intent.payment_failed carry them.
   */
  failDelayedPayment(sessionId: string): { session: Json; paymentIntent: Json };
  /** Expires an open checkout session. */
  expireCheckout(sessionId: string): Json;
  /**
   * Bills the next period: a paid invoice (subscription_cycle) and the period moved on (a
   * trialing subscription's first charge at its trial_end: it turns active).
   */
  renew(subscriptionId: string): { subscription: Json; invoice: Json };
  /**
   * A renewal whose payment fails: an open invoice and the subscription past_due; failing
   * again (Stripe's retries) leaves it unpaid. A later renew() pays the open invoice.
   */
  failRenewal(subscriptionId: string): { subscription: Json; invoice: Json };
  /** Ends a subscription (the period ran out after a cancellation). */
  endSubscription(subscriptionId: string): Json;
  /** An event as Stripe would send it. */
  event(type: string, object: Json): Json;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

/** Stripe's form encoding (a[b][0][c]=v) into nested objects and arrays. */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const pair of text.split("&")) {
    if (!pair) continue;
    const [rawKey, rawValue = ""] = pair.split("=");
    const key = decodeURIComponent((rawKey ?? "").replace(/\+/g, " "));
    const value = decodeURIComponent(rawValue.replace(/\+/g, " "));
    const parts = key.split(/\[|\]\[|\]/).filter((part) => part !== "");
    let node: Json = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        node[part] = value;
        return;
      }
      const next = parts[index + 1] ?? "";
      node[part] ??= /^\d+$/.test(next) ? [] : {};
      node = node[part] as Json;
    });
  }
  return root;
}

function addPeriod(start: number, interval: string, count: number): number {
  const date = new Date(start * 1000);
  if (interval === "day") date.setUTCDate(date.getUTCDate() + count);
  else if (interval === "week") date.setUTCDate(date.getUTCDate() + 7 * count);
  else if (interval === "month") date.setUTCMonth(date.getUTCMonth() + count);
  else date.setUTCFullYear(date.getUTCFullYear() + count);
  return Math.floor(date.getTime() / 1000);
}

const notFound = (response: ServerResponse, what: string, key: string) =>
  sendJson(response, 404, {
    error: {
      type: "invalid_request_error",
      code: "resource_missing",
      message: `No such ${what}: '${key}'`,
    },
  });

export async function startFakeStripe(options: { secretKey?: string } = {}): Promise<FakeStripe> {
  // Stripe's test clock: renew() moves it to the new period's start, so everything made after a
  // renewal (invoices, events) is dated within that period, as it would be at Stripe.
  let clockShift = 0;
  const now = () => Math.floor(Date.now() / 1000) + clockShift;
  const advanceClockTo = (moment: number) => {
    clockShift = Math.max(clockShift, moment - Math.floor(Date.now() / 1000));
  };
  const validKey = options.secretKey ?? FAKE_STRIPE_SECRET_KEY;
  const products = new Map<string, Json>();
  const prices = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const rounding: { percentHalf: "up" | "even" } = { percentHalf: "up" };
  const subscriptions = new Map<string, Json>();
  const invoices = new Map<string, Json>();
  const customers = new Map<string, Json>();
  /** POST answers by Idempotency-Key: a retried call gets the first answer, nothing twice. */
  const idempotent = new Map<string, Json>();
  let invoiceNumber = 0;

  const customerOf = (customerId: string): Json => {
    let customer = customers.get(customerId);
    if (!customer) {
      customer = { id: customerId, object: "customer", balance: 0, currency: null, created: now() };
      customers.set(customerId, customer);
    }
    return customer;
  };

  const paymentIntents = new Map<string, Json>();
  const charges = new Map<string, Json>();
  /** Charges of attempts that failed, by their id: retrievable, never refundable. */
  const failedCharges = new Map<string, Json>();
  const refunds = new Map<string, Json>();
  const disputes = new Map<string, Json>();
  const coupons = new Map<string, Json>();
  const promotionCodes = new Map<string, Json>();
  /** Idempotency-Key to the refund it made: a retried POST answers the same refund. */
  const refundKeys = new Map<string, Json>();

  /** The charge a payment intent makes when it succeeds. */
  const charge = (paymentIntent: string, amount: number, currency: unknown): Json => {
    const made: Json = {
      id: id("ch"),
      object: "charge",
      payment_intent: paymentIntent,
      amount,
      amount_refunded: 0,
      currency,
      paid: true,
      refunded: false,
      disputed: false,
      status: "succeeded",
      created: now(),
    };
    charges.set(paymentIntent, made);
    return made;
  };
  const chargeById = (chargeId: string) =>
    [...charges.values()].find((each) => each.id === chargeId) ?? failedCharges.get(chargeId);
  const refundsOf = (made: Json) =>
    [...refunds.values()].filter((refund) => refund.charge === made.id);
  /** The charge as the API answers it (refunds expanded as a list). */
  const chargeView = (made: Json): Json => ({
    ...made,
    refunds: { object: "list", data: refundsOf(made), has_more: false },
  });
  const makeRefund = (made: Json, amount: number, metadata: Json): Json => {
    const refund: Json = {
      id: id("re"),
      object: "refund",
      amount,
      charge: made.id,
      payment_intent: made.payment_intent,
      currency: made.currency,
      status: "succeeded",
      reason: "requested_by_customer",
      metadata,
      created: now(),
    };
    refunds.set(String(refund.id), refund);
    made.amount_refunded = Number(made.amount_refunded) + amount;
    made.refunded = made.amount_refunded === made.amount;
    return refund;
  };

  const priceObject = (price: Json) => ({ ...price });

  const subscriptionItem = (subscription: Json): Json => {
    const item = (subscription.items as { data: Json[] }).data[0] as Json;
    return item;
  };

  /**
   * An invoice as Stripe finalizes it: `amount` is the signed total; a negative one goes to the
   * customer's balance; a paid positive one uses the balance's credit first.
   */
  const makeInvoice = (input: {
    subscription: Json;
    amount: number;
    reason: string;
    paid: boolean;
    periodStart: number;
    periodEnd: number;
  }): Json => {
    invoiceNumber += 1;
    const invoiceId = id("in");
    const paymentIntent = id("pi");
    const customer = customerOf(String(input.subscription.customer));
    const startingBalance = Number(customer.balance);
    let due = Math.max(0, input.amount);
    if (input.amount < 0) {
      customer.balance = startingBalance + input.amount;
    } else if (input.paid && startingBalance < 0) {
      const applied = Math.min(input.amount, -startingBalance);
      customer.balance = startingBalance + applied;
      due = input.amount - applied;
    }
    const paid = input.paid && due > 0;
    const invoice: Json = {
      id: invoiceId,
      object: "invoice",
      number: `FAKE-${String(invoiceNumber).padStart(4, "0")}`,
      status: input.paid ? "paid" : "open",
      customer: input.subscription.customer,
      currency: input.subscription.currency,
      total: input.amount,
      starting_balance: startingBalance,
      ending_balance: Number(customer.balance),
      amount_due: due,
      amount_paid: input.paid ? due : 0,
      amount_remaining: input.paid ? 0 : due,
      attempt_count: 1,
      billing_reason: input.reason,
      created: now(),
      period_start: input.periodStart,
      period_end: input.periodEnd,
      parent: {
        type: "subscription_details",
        subscription_details: {
          subscription: input.subscription.id,
          // Stripe snapshots the subscription's metadata on the invoice.
          metadata: { ...((input.subscription.metadata as Json) ?? {}) },
        },
      },
      lines: {
        object: "list",
        data: [
          {
            id: id("il"),
            object: "line_item",
            amount: input.amount,
            currency: input.subscription.currency,
            period: { start: input.periodStart, end: input.periodEnd },
          },
        ],
        has_more: false,
      },
      payments: {
        object: "list",
        data: paid
          ? [
              {
                id: id("inpay"),
                object: "invoice_payment",
                payment: { type: "payment_intent", payment_intent: paymentIntent },
                status: "paid",
              },
            ]
          : [],
        has_more: false,
      },
    };
    invoices.set(invoiceId, invoice);
    // The card is charged what is due once the account credit is used.
    if (paid) charge(paymentIntent, due, input.subscription.currency);
    return invoice;
  };

  const list = (items: Json[], query: Json) => {
    const limit = Number(query.limit ?? 10);
    let start = 0;
    if (query.starting_after) {
      start = items.findIndex((item) => item.id === query.starting_after) + 1;
    }
    const page = items.slice(start, start + limit);
    return { object: "list", data: page, has_more: start + limit < items.length, url: "" };
  };

  const proration = (subscription: Json, newAmount: number) => {
    const item = subscriptionItem(subscription);
    const start = Number(item.current_period_start);
    const end = Number(item.current_period_end);
    const oldAmount = Number((item.price as Json).unit_amount);
    const fraction = Math.min(Math.max((end - now()) / (end - start), 0), 1);
    // Signed: a downgrade's proration is negative (credited to the customer's balance).
    return Math.round(newAmount * fraction) - Math.round(oldAmount * fraction);
  };

  const handler = (request: RecordedRequest, response: ServerResponse, rawUrl: string) => {
    const key = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1] ?? "";
    if (key !== validKey) {
      return sendJson(response, 401, {
        error: {
          message: `Invalid API Key provided: ${key.slice(0, 8)}********${key.slice(-4)}`,
          type: "invalid_request_error",
        },
      });
    }
    const query = parseStripeForm(new URL(rawUrl, "http://localhost").search.slice(1));
    const body = parseStripeForm(request.body.toString());
    const { method, path } = request;
    const segments = path.split("/").filter(Boolean);
    const [, resource, objectId, action] = segments;

    if (method === "GET" && path === "/v1/balance") {
      return sendJson(response, 200, {
        object: "balance",
        available: [{ amount: 1234, currency: "usd", source_types: { card: 1234 } }],
        pending: [],
        livemode: false,
      });
    }

    if (resource === "products") {
      if (method === "POST" && !objectId) {
        const product: Json = {
          id: id("prod"),
          object: "product",
          name: body.name,
          description: body.description ?? null,
          active: true,
          metadata: body.metadata ?? {},
          created: now(),
        };
        products.set(String(product.id), product);
        return sendJson(response, 200, product);
      }
      if (method === "GET" && !objectId)
        return sendJson(response, 200, list([...products.values()], query));
      const product = products.get(String(objectId));
      if (!product) return notFound(response, "product", String(objectId));
      if (method === "POST") {
        if (body.name !== undefined) product.name = body.name;
        if (body.description !== undefined) product.description = body.description || null;
        if (body.active !== undefined) product.active = body.active === "true";
      }
      return sendJson(response, 200, product);
    }

    if (resource === "prices") {
      if (method === "POST" && !objectId) {
        const recurring = body.recurring as Json | undefined;
        if (!products.has(String(body.product)))
          return notFound(response, "product", String(body.product));
        const price: Json = {
          id: id("price"),
          object: "price",
          product: body.product,
          unit_amount: Number(body.unit_amount),
          currency: body.currency,
          active: true,
          metadata: body.metadata ?? {},
          recurring: recurring
            ? {
                interval: recurring.interval,
                interval_count: Number(recurring.interval_count ?? 1),
              }
            : null,
          type: recurring ? "recurring" : "one_time",
        };
        prices.set(String(price.id), price);
        return sendJson(response, 200, price);
      }
      const price = prices.get(String(objectId));
      if (!price) return notFound(response, "price", String(objectId));
      if (method === "POST" && body.active !== undefined) price.active = body.active === "true";
      return sendJson(response, 200, priceObject(price));
    }

    if (resource === "coupons") {
      if (method === "POST" && !objectId) {
        const coupon: Json = {
          id: id("coupon"),
          object: "coupon",
          name: body.name ?? null,
          duration: body.duration ?? "once",
          percent_off: body.percent_off !== undefined ? Number(body.percent_off) : null,
          amount_off: body.amount_off !== undefined ? Number(body.amount_off) : null,
          currency: body.currency ?? null,
          valid: true,
          metadata: body.metadata ?? {},
          created: now(),
        };
        if ((coupon.percent_off === null) === (coupon.amount_off === null)) {
          return sendJson(response, 400, {
            error: {
              type: "invalid_request_error",
              message: "A coupon needs exactly one of percent_off and amount_off",
            },
          });
        }
        coupons.set(String(coupon.id), coupon);
        return sendJson(response, 200, coupon);
      }
      const coupon = coupons.get(String(objectId));
      if (!coupon) return notFound(response, "coupon", String(objectId));
      return sendJson(response, 200, coupon);
    }

    if (resource === "promotion_codes") {
      if (method === "POST" && !objectId) {
        const promotion = (body.promotion as Json | undefined) ?? {};
        const coupon = coupons.get(String(promotion.coupon));
        if (!coupon) return notFound(response, "coupon", String(promotion.coupon));
        if ([...promotionCodes.values()].some((each) => each.active && each.code === body.code)) {
          return sendJson(response, 400, {
            error: {
              type: "invalid_request_error",
              message: "An active promotion code with `code` already exists.",
            },
          });
        }
        const promotionCode: Json = {
          id: id("promo"),
          object: "promotion_code",
          code: body.code,
          promotion: { type: "coupon", coupon: coupon.id },
          active: true,
          expires_at: body.expires_at !== undefined ? Number(body.expires_at) : null,
          max_redemptions: body.max_redemptions !== undefined ? Number(body.max_redemptions) : null,
          times_redeemed: 0,
          metadata: body.metadata ?? {},
          created: now(),
        };
        promotionCodes.set(String(promotionCode.id), promotionCode);
        return sendJson(response, 200, promotionCode);
      }
      const promotionCode = promotionCodes.get(String(objectId));
      if (!promotionCode) return notFound(response, "promotion_code", String(objectId));
      if (method === "POST" && body.active !== undefined) {
        promotionCode.active = body.active === "true";
      }
      return sendJson(response, 200, promotionCode);
    }

    if (resource === "checkout" && objectId === "sessions") {
      const sessionId = action;
      if (method === "POST" && !sessionId) {
        const item = ((body.line_items as Json[]) ?? [])[0] ?? {};
        let price = item.price ? prices.get(String(item.price)) : undefined;
        if (item.price && !price) return notFound(response, "price", String(item.price));
        if (!price) {
          const data = item.price_data as Json;
          price = {
            id: id("price"),
            object: "price",
            unit_amount: Number(data.unit_amount),
            currency: data.currency,
            active: true,
            recurring: data.recurring
              ? {
                  interval: (data.recurring as Json).interval,
                  interval_count: Number((data.recurring as Json).interval_count ?? 1),
                }
              : null,
          };
          prices.set(String(price.id), price);
        }
        if (body.mode === "subscription" && !price.recurring) {
          return sendJson(response, 400, {
            error: {
              type: "invalid_request_error",
              message: "A subscription needs a recurring price",
            },
          });
        }
        const discounts = (body.discounts as Json[] | undefined) ?? [];
        let discount: { promotionCode: Json; coupon: Json } | null = null;
        for (const each of discounts) {
          const promotionCode = promotionCodes.get(String(each.promotion_code));
          if (!promotionCode) {
            return notFound(response, "promotion_code", String(each.promotion_code));
          }
          const coupon = coupons.get(String((promotionCode.promotion as Json).coupon)) as Json;
          const refused = !promotionCode.active
            ? "This promotion code is inactive."
            : promotionCode.expires_at !== null && Number(promotionCode.expires_at) <= now()
              ? "This promotion code has expired."
              : promotionCode.max_redemptions !== null &&
                  Number(promotionCode.times_redeemed) >= Number(promotionCode.max_redemptions)
                ? "This promotion code has reached its maximum number of redemptions."
                : coupon.currency !== null && coupon.currency !== price.currency
                  ? "This promotion code's currency does not match the price's."
                  : null;
          if (refused) {
            return sendJson(response, 400, {
              error: {
                type: "invalid_request_error",
                code: "promotion_code_invalid",
                message: refused,
              },
            });
          }
          discount = { promotionCode, coupon };
        }
        // subscription_data.trial_period_days (decision 0083): nothing due at the checkout.
        const trialDays = Number(
          (body.subscription_data as Json | undefined)?.trial_period_days ?? 0,
        );
        const subtotal = Number(price.unit_amount);
        // A percentage rounds to the nearest minor unit, a half as `rounding` says.
        const amountDiscount = discount
          ? discount.coupon.percent_off !== null
            ? Math.min(
                subtotal,
                percentOff(subtotal, Math.round(Number(discount.coupon.percent_off) * 100)),
              )
            : Math.min(subtotal, Number(discount.coupon.amount_off))
          : 0;
        const created: Json = {
          id: id("cs_test"),
          object: "checkout.session",
          mode: body.mode,
          status: "open",
          payment_status: "unpaid",
          client_reference_id: body.client_reference_id ?? null,
          customer: null,
          customer_email: body.customer_email ?? null,
          metadata: body.metadata ?? {},
          subscription_metadata: (body.subscription_data as Json | undefined)?.metadata ?? {},
          payment_intent_metadata: (body.payment_intent_data as Json | undefined)?.metadata ?? {},
          amount_subtotal: trialDays > 0 ? 0 : subtotal,
          amount_total: trialDays > 0 ? 0 : subtotal - amountDiscount,
          trial_period_days: trialDays > 0 ? trialDays : null,
          total_details: { amount_discount: amountDiscount, amount_shipping: 0, amount_tax: 0 },
          discounts: discount
            ? [{ coupon: discount.coupon.id, promotion_code: discount.promotionCode.id }]
            : [],
          currency: price.currency,
          price_id: price.id,
          subscription: null,
          payment_intent: null,
          success_url: body.success_url,
          cancel_url: body.cancel_url,
          expires_at: body.expires_at ? Number(body.expires_at) : now() + 86_400,
          created: now(),
        };
        created.url = `https://checkout.stripe.test/c/pay/${created.id}`;
        sessions.set(String(created.id), created);
        return sendJson(response, 200, created);
      }
      if (method === "GET" && !sessionId) {
        const found = [...sessions.values()].filter(
          (each) =>
            (query.payment_intent === undefined || each.payment_intent === query.payment_intent) &&
            (query.customer === undefined || each.customer === query.customer),
        );
        return sendJson(response, 200, list(found, query));
      }
      const session = sessions.get(String(sessionId));
      if (!session) return notFound(response, "checkout.session", String(sessionId));
      return sendJson(response, 200, session);
    }

    if (resource === "payment_intents") {
      const intent = paymentIntents.get(String(objectId));
      if (!intent) return notFound(response, "payment_intent", String(objectId));
      return sendJson(response, 200, intent);
    }

    if (resource === "customers") {
      const customer = customers.get(String(objectId));
      if (!customer) return notFound(response, "customer", String(objectId));
      return sendJson(response, 200, customer);
    }

    if (resource === "refunds") {
      if (method === "POST" && !objectId) {
        const idempotencyKey = String(request.headers["idempotency-key"] ?? "");
        const earlier = idempotencyKey ? refundKeys.get(idempotencyKey) : undefined;
        if (earlier) return sendJson(response, 200, earlier);
        const made = body.charge
          ? [...charges.values()].find((each) => each.id === body.charge)
          : charges.get(String(body.payment_intent));
        if (!made) {
          return notFound(
            response,
            body.charge ? "charge" : "payment_intent",
            String(body.charge ?? body.payment_intent),
          );
        }
        const left = Number(made.amount) - Number(made.amount_refunded);
        const amount = body.amount === undefined ? left : Number(body.amount);
        if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
          return sendJson(response, 400, {
            error: {
              type: "invalid_request_error",
              code: left === 0 ? "charge_already_refunded" : "amount_too_large",
              message:
                left === 0
                  ? `Charge ${made.id} has already been refunded.`
                  : `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
            },
          });
        }
        const refund = makeRefund(made, amount, (body.metadata as Json) ?? {});
        if (idempotencyKey) refundKeys.set(idempotencyKey, refund);
        return sendJson(response, 200, refund);
      }
      const refund = refunds.get(String(objectId));
      if (!refund) return notFound(response, "refund", String(objectId));
      return sendJson(response, 200, refund);
    }

    if (resource === "charges") {
      const made = chargeById(String(objectId));
      if (!made) return notFound(response, "charge", String(objectId));
      return sendJson(response, 200, chargeView(made));
    }

    if (resource === "disputes") {
      const dispute = disputes.get(String(objectId));
      if (!dispute) return notFound(response, "dispute", String(objectId));
      return sendJson(response, 200, dispute);
    }

    if (resource === "subscriptions") {
      const subscription = subscriptions.get(String(objectId));
      if (!subscription) return notFound(response, "subscription", String(objectId));
      const idempotencyKey = request.headers["idempotency-key"];
      const replayKey = typeof idempotencyKey === "string" ? `${path}:${idempotencyKey}` : null;
      const replayed = method === "POST" && replayKey ? idempotent.get(replayKey) : undefined;
      if (replayed) return sendJson(response, 200, replayed);
      if (method === "DELETE") {
        if (subscription.status !== "canceled") {
          subscription.status = "canceled";
          subscription.canceled_at = now();
          subscription.ended_at = now();
        }
        return sendJson(response, 200, subscription);
      }
      if (method === "POST") {
        if (body.cancel_at_period_end !== undefined) {
          subscription.cancel_at_period_end = body.cancel_at_period_end === "true";
          subscription.canceled_at = subscription.cancel_at_period_end ? now() : null;
        }
        if (body.metadata)
          subscription.metadata = {
            ...(subscription.metadata as Json),
            ...(body.metadata as Json),
          };
        const items = body.items as Json[] | undefined;
        const newPriceId = items?.[0]?.price;
        if (newPriceId) {
          const price = prices.get(String(newPriceId));
          if (!price) return notFound(response, "price", String(newPriceId));
          const due = proration(subscription, Number(price.unit_amount));
          const item = subscriptionItem(subscription);
          item.price = priceObject(price);
          if (body.proration_behavior === "always_invoice" && due !== 0) {
            const invoice = makeInvoice({
              subscription,
              amount: due,
              reason: "subscription_update",
              paid: true,
              periodStart: now(),
              periodEnd: Number(item.current_period_end),
            });
            subscription.latest_invoice = invoice.id;
          }
        }
        if (replayKey) idempotent.set(replayKey, structuredClone(subscription));
      }
      return sendJson(response, 200, subscription);
    }

    if (resource === "invoices") {
      if (method === "POST" && objectId === "create_preview") {
        const subscription = subscriptions.get(String(body.subscription));
        if (!subscription) return notFound(response, "subscription", String(body.subscription));
        const details = body.subscription_details as Json;
        const priceId = ((details?.items as Json[]) ?? [])[0]?.price;
        const price = prices.get(String(priceId));
        if (!price) return notFound(response, "price", String(priceId));
        const total = proration(subscription, Number(price.unit_amount));
        return sendJson(response, 200, {
          object: "invoice",
          id: null,
          total,
          amount_due: Math.max(0, total),
          currency: price.currency,
          billing_reason: "subscription_update",
          created: now(),
          lines: { object: "list", data: [], has_more: false },
        });
      }
      if (method === "GET" && !objectId) {
        // Newest first, as Stripe lists them; `subscription` filters.
        const all = [...invoices.values()]
          .filter(
            (invoice) =>
              !query.subscription ||
              ((invoice.parent as Json).subscription_details &&
                ((invoice.parent as Json).subscription_details as Json).subscription ===
                  query.subscription),
          )
          .reverse();
        return sendJson(response, 200, list(all, query));
      }
      const invoice = invoices.get(String(objectId));
      if (!invoice) return notFound(response, "invoice", String(objectId));
      return sendJson(response, 200, invoice);
    }

    sendJson(response, 404, {
      error: {
        message: `Unrecognized request URL (${method}: ${path})`,
        type: "invalid_request_error",
      },
    });
  };

  const server = await startFakeHttpServer((request, response, raw) =>
    handler(request, response, raw.url ?? "/"),
  );

  const startSubscription = (session: Json): { subscription: Json; invoice: Json } => {
    const price = prices.get(String(session.price_id)) as Json;
    const recurring = price.recurring as Json;
    const start = now();
    // A free trial: the first period is the trial, billed $0; the first charge is the renewal at
    // trial_end (billing_reason subscription_cycle), as at Stripe.
    const trialDays = Number(session.trial_period_days ?? 0);
    const end =
      trialDays > 0
        ? start + trialDays * 86_400
        : addPeriod(start, String(recurring.interval), Number(recurring.interval_count));
    const subscription: Json = {
      id: id("sub"),
      object: "subscription",
      status: trialDays > 0 ? "trialing" : "active",
      trial_start: trialDays > 0 ? start : null,
      trial_end: trialDays > 0 ? end : null,
      customer: session.customer,
      currency: price.currency,
      cancel_at_period_end: false,
      canceled_at: null,
      created: start,
      metadata: session.subscription_metadata ?? {},
      latest_invoice: null,
      items: {
        object: "list",
        data: [
          {
            id: id("si"),
            object: "subscription_item",
            price: priceObject(price),
            current_period_start: start,
            current_period_end: end,
          },
        ],
        has_more: false,
      },
    };
    // A coupon of duration once lowers the first invoice only.
    const invoice = makeInvoice({
      subscription,
      amount: Number(session.amount_total),
      reason: "subscription_create",
      paid: true,
      periodStart: start,
      periodEnd: end,
    });
    subscription.latest_invoice = invoice.id;
    subscriptions.set(String(subscription.id), subscription);
    return { subscription, invoice };
  };

  const mustSession = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`No such session ${sessionId}`);
    return session;
  };

  /** The session's payment intent, made at its first attempt (a paid one is never reused). */
  const intentOf = (session: Json): Json => {
    const current = paymentIntents.get(String(session.payment_intent));
    if (current && current.status !== "succeeded") return current;
    const intent: Json = {
      id: id("pi"),
      object: "payment_intent",
      amount: session.amount_total,
      amount_received: 0,
      currency: session.currency,
      status: "requires_payment_method",
      capture_method: "automatic_async",
      confirmation_method: "automatic",
      payment_method_types: ["card"],
      metadata: { ...((session.payment_intent_metadata as Json) ?? {}) },
      latest_charge: null,
      last_payment_error: null,
      livemode: false,
      created: now(),
    };
    paymentIntents.set(String(intent.id), intent);
    session.payment_intent = intent.id;
    return intent;
  };

  /** The intent's attempt failed with `error`: a failed charge when it names one (cards). */
  const failAttempt = (intent: Json, error: Json, withCharge: boolean): Json => {
    let chargeId: string | null = null;
    if (withCharge) {
      chargeId = id("ch");
      failedCharges.set(chargeId, {
        id: chargeId,
        object: "charge",
        payment_intent: intent.id,
        amount: intent.amount,
        amount_refunded: 0,
        currency: intent.currency,
        paid: false,
        refunded: false,
        disputed: false,
        status: "failed",
        failure_code: error.code ?? null,
        failure_message: error.message ?? null,
        created: now(),
      });
    }
    Object.assign(intent, {
      status: "requires_payment_method",
      latest_charge: chargeId ?? intent.latest_charge,
      last_payment_error: { ...error, ...(chargeId ? { charge: chargeId } : {}) },
    });
    return structuredClone(intent);
  };

  const mustSubscription = (subscriptionId: string) => {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`No such subscription ${subscriptionId}`);
    return subscription;
  };

  /** `basisPoints` of `amount`, in minor units, a half rounded as `rounding` says. */
  function percentOff(amount: number, basisPoints: number): number {
    const tenThousandths = amount * basisPoints;
    const whole = Math.floor(tenThousandths / 10_000);
    const rest = tenThousandths - whole * 10_000;
    if (rest > 5_000) return whole + 1;
    if (rest < 5_000) return whole;
    return rounding.percentHalf === "up" || whole % 2 === 1 ? whole + 1 : whole;
  }

  return {
    ...server,
    rounding,
    products,
    prices,
    sessions,
    subscriptions,
    invoices,
    customers,
    paymentIntents,
    charges,
    refunds,
    disputes,
    coupons,
    promotionCodes,
    chargeOf(paymentIntentId) {
      const made = charges.get(paymentIntentId);
      if (!made) throw new Error(`No charge for ${paymentIntentId}`);
      return chargeView(made);
    },
    refundInDashboard(paymentIntentId, amount) {
      const made = charges.get(paymentIntentId);
      if (!made) throw new Error(`No charge for ${paymentIntentId}`);
      const refund = makeRefund(
        made,
        amount ?? Number(made.amount) - Number(made.amount_refunded),
        {},
      );
      return { charge: chargeView(made), refund };
    },
    openDispute(paymentIntentId, amount) {
      const made = charges.get(paymentIntentId);
      if (!made) throw new Error(`No charge for ${paymentIntentId}`);
      made.disputed = true;
      const dispute: Json = {
        id: id("dp"),
        object: "dispute",
        amount: amount ?? made.amount,
        charge: made.id,
        payment_intent: paymentIntentId,
        currency: made.currency,
        reason: "fraudulent",
        status: "needs_response",
        created: now(),
      };
      disputes.set(String(dispute.id), dispute);
      return dispute;
    },
    completeCheckout(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`No such session ${sessionId}`);
      session.customer ??= id("cus");
      customerOf(String(session.customer));
      session.status = "complete";
      session.payment_status = "paid";
      for (const each of (session.discounts as Json[] | undefined) ?? []) {
        const promotionCode = promotionCodes.get(String(each.promotion_code));
        if (promotionCode) promotionCode.times_redeemed = Number(promotionCode.times_redeemed) + 1;
      }
      if (session.mode === "subscription") {
        const started = startSubscription(session);
        session.subscription = started.subscription.id;
        return { session, ...started };
      }
      const intent = intentOf(session);
      const made = charge(String(intent.id), Number(session.amount_total), session.currency);
      Object.assign(intent, {
        status: "succeeded",
        amount_received: session.amount_total,
        latest_charge: made.id,
        last_payment_error: null,
      });
      return { session };
    },
    failCheckoutAttempt(sessionId, error = {}) {
      const session = mustSession(sessionId);
      if (session.mode !== "payment" || session.status !== "open") {
        throw new Error(`Session ${sessionId} takes no payment attempt`);
      }
      const declined: Json = {
        type: "card_error",
        code: "card_declined",
        decline_code: "generic_decline",
        message: "Your card was declined.",
        doc_url: "https://stripe.com/docs/error-codes/card-declined",
        payment_method_type: "card",
        ...error,
      };
      return failAttempt(intentOf(session), declined, true);
    },
    failDelayedPayment(sessionId) {
      const session = mustSession(sessionId);
      if (session.mode !== "payment" || session.status !== "open") {
        throw new Error(`Session ${sessionId} takes no payment`);
      }
      session.customer ??= id("cus");
      Object.assign(session, { status: "complete", payment_status: "unpaid" });
      const intent = intentOf(session);
      const paymentIntent = failAttempt(
        intent,
        {
          type: "invalid_request_error",
          code: "insufficient_funds",
          message: "The customer's account has insufficient funds to cover this payment.",
          payment_method_type: "sepa_debit",
        },
        false,
      );
      return { session, paymentIntent };
    },
    expireCheckout(sessionId) {
      const session = mustSession(sessionId);
      session.status = "expired";
      return session;
    },
    renew(subscriptionId) {
      const subscription = mustSubscription(subscriptionId);
      const item = subscriptionItem(subscription);
      const price = item.price as Json;
      const start = Number(item.current_period_end);
      const recurring = price.recurring as Json;
      const end = addPeriod(start, String(recurring.interval), Number(recurring.interval_count));
      advanceClockTo(start);
      item.current_period_start = start;
      item.current_period_end = end;
      subscription.status = "active";
      const open = subscription.open_invoice
        ? invoices.get(String(subscription.open_invoice))
        : null;
      if (open) {
        // A retry that succeeds pays the invoice the failed attempts left open, as it was made.
        const customer = customerOf(String(subscription.customer));
        const total = Number(open.total);
        const starting = Number(customer.balance);
        const applied = starting < 0 ? Math.min(total, -starting) : 0;
        customer.balance = starting + applied;
        const due = total - applied;
        const paymentIntent = id("pi");
        Object.assign(open, {
          status: "paid",
          starting_balance: starting,
          ending_balance: customer.balance,
          amount_due: due,
          amount_paid: due,
          amount_remaining: 0,
          attempt_count: Number(open.attempt_count) + 1,
          payments: {
            object: "list",
            data:
              due > 0
                ? [
                    {
                      id: id("inpay"),
                      object: "invoice_payment",
                      payment: { type: "payment_intent", payment_intent: paymentIntent },
                      status: "paid",
                    },
                  ]
                : [],
            has_more: false,
          },
        });
        if (due > 0) charge(paymentIntent, due, open.currency);
        subscription.open_invoice = null;
        subscription.latest_invoice = open.id;
        return { subscription, invoice: open };
      }
      const invoice = makeInvoice({
        subscription,
        amount: Number(price.unit_amount),
        reason: "subscription_cycle",
        paid: true,
        periodStart: start,
        periodEnd: end,
      });
      subscription.latest_invoice = invoice.id;
      return { subscription, invoice };
    },
    failRenewal(subscriptionId) {
      const subscription = mustSubscription(subscriptionId);
      const item = subscriptionItem(subscription);
      const price = item.price as Json;
      const open = subscription.open_invoice
        ? invoices.get(String(subscription.open_invoice))
        : null;
      if (open) {
        // Stripe's retries failed too: the subscription is left unpaid.
        open.attempt_count = Number(open.attempt_count) + 1;
        subscription.status = "unpaid";
        return { subscription, invoice: open };
      }
      subscription.status = "past_due";
      // The attempt is made when the period ends: the test clock moves there.
      advanceClockTo(Number(item.current_period_end));
      // The invoice bills the next period (the one a later renew() moves the subscription to).
      const start = Number(item.current_period_end);
      const recurring = price.recurring as Json;
      const invoice = makeInvoice({
        subscription,
        amount: Number(price.unit_amount),
        reason: "subscription_cycle",
        paid: false,
        periodStart: start,
        periodEnd: addPeriod(start, String(recurring.interval), Number(recurring.interval_count)),
      });
      subscription.latest_invoice = invoice.id;
      subscription.open_invoice = invoice.id;
      return { subscription, invoice };
    },
    endSubscription(subscriptionId) {
      const subscription = mustSubscription(subscriptionId);
      subscription.status = "canceled";
      subscription.ended_at = now();
      return subscription;
    },
    event(type, object) {
      return {
        id: id("evt"),
        object: "event",
        api_version: "2026-10-28.endive",
        type,
        created: now(),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object },
      };
    },
  };
}
