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
  /** One charge per paid payment intent, keyed by the payment intent. */
  charges: Map<string, Json>;
  refunds: Map<string, Json>;
  disputes: Map<string, Json>;
  /** A refund made in Stripe's dashboard (no metadata): the charge, refreshed, and the refund. */
  refundInDashboard(paymentIntentId: string, amount?: number): { charge: Json; refund: Json };
  /** A dispute opened by the card holder's bank on a payment. */
  openDispute(paymentIntentId: string, amount?: number): Json;
  /** The charge of a payment intent. */
  chargeOf(paymentIntentId: string): Json;
  /** Pays an open checkout session (and, in subscription mode, starts the subscription). */
  completeCheckout(sessionId: string): { session: Json; subscription?: Json; invoice?: Json };
  /** Expires an open checkout session. */
  expireCheckout(sessionId: string): Json;
  /** Bills the next period: a paid invoice (subscription_cycle) and the period moved on. */
  renew(subscriptionId: string): { subscription: Json; invoice: Json };
  /** A renewal whose payment fails: an open invoice and the subscription past_due. */
  failRenewal(subscriptionId: string): { subscription: Json; invoice: Json };
  /** Ends a subscription (the period ran out after a cancellation). */
  endSubscription(subscriptionId: string): Json;
  /** An event as Stripe would send it. */
  event(type: string, object: Json): Json;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const now = () => Math.floor(Date.now() / 1000);

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
  const validKey = options.secretKey ?? FAKE_STRIPE_SECRET_KEY;
  const products = new Map<string, Json>();
  const prices = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const invoices = new Map<string, Json>();
  const charges = new Map<string, Json>();
  const refunds = new Map<string, Json>();
  const disputes = new Map<string, Json>();
  /** Idempotency-Key to the refund it made: a retried POST answers the same refund. */
  const refundKeys = new Map<string, Json>();
  let invoiceNumber = 0;

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
    [...charges.values()].find((each) => each.id === chargeId);
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
    const invoice: Json = {
      id: invoiceId,
      object: "invoice",
      number: `FAKE-${String(invoiceNumber).padStart(4, "0")}`,
      status: input.paid ? "paid" : "open",
      customer: input.subscription.customer,
      currency: input.subscription.currency,
      amount_due: input.amount,
      amount_paid: input.paid ? input.amount : 0,
      amount_remaining: input.paid ? 0 : input.amount,
      attempt_count: 1,
      billing_reason: input.reason,
      created: now(),
      period_start: input.periodStart,
      period_end: input.periodEnd,
      parent: {
        type: "subscription_details",
        subscription_details: { subscription: input.subscription.id, metadata: {} },
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
        data: input.paid
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
    if (input.paid) charge(paymentIntent, input.amount, input.subscription.currency);
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
    return Math.max(0, Math.round(newAmount * fraction) - Math.round(oldAmount * fraction));
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
          amount_total: Number(price.unit_amount),
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
      const session = sessions.get(String(sessionId));
      if (!session) return notFound(response, "checkout.session", String(sessionId));
      return sendJson(response, 200, session);
    }

    if (resource === "refunds") {
      if (method === "POST" && !objectId) {
        const idempotencyKey = String(request.headers["idempotency-key"] ?? "");
        const earlier = idempotencyKey ? refundKeys.get(idempotencyKey) : undefined;
        if (earlier) return sendJson(response, 200, earlier);
        const made = body.charge
          ? chargeById(String(body.charge))
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
          if (body.proration_behavior === "always_invoice" && due > 0) {
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
        return sendJson(response, 200, {
          object: "invoice",
          id: null,
          amount_due: proration(subscription, Number(price.unit_amount)),
          currency: price.currency,
          billing_reason: "subscription_update",
          created: now(),
          lines: { object: "list", data: [], has_more: false },
        });
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
    const end = addPeriod(start, String(recurring.interval), Number(recurring.interval_count));
    const subscription: Json = {
      id: id("sub"),
      object: "subscription",
      status: "active",
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
    const invoice = makeInvoice({
      subscription,
      amount: Number(price.unit_amount),
      reason: "subscription_create",
      paid: true,
      periodStart: start,
      periodEnd: end,
    });
    subscription.latest_invoice = invoice.id;
    subscriptions.set(String(subscription.id), subscription);
    return { subscription, invoice };
  };

  const mustSubscription = (subscriptionId: string) => {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`No such subscription ${subscriptionId}`);
    return subscription;
  };

  return {
    ...server,
    products,
    prices,
    sessions,
    subscriptions,
    invoices,
    charges,
    refunds,
    disputes,
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
      session.status = "complete";
      session.payment_status = "paid";
      if (session.mode === "subscription") {
        const started = startSubscription(session);
        session.subscription = started.subscription.id;
        return { session, ...started };
      }
      session.payment_intent = id("pi");
      charge(String(session.payment_intent), Number(session.amount_total), session.currency);
      return { session };
    },
    expireCheckout(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`No such session ${sessionId}`);
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
      item.current_period_start = start;
      item.current_period_end = end;
      subscription.status = "active";
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
      subscription.status = "past_due";
      const invoice = makeInvoice({
        subscription,
        amount: Number(price.unit_amount),
        reason: "subscription_cycle",
        paid: false,
        periodStart: Number(item.current_period_end),
        periodEnd: Number(item.current_period_end),
      });
      subscription.latest_invoice = invoice.id;
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
