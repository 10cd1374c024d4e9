import * as catalogue from "./catalogue.ts";
import { retrieveCharge } from "./charges.ts";
import * as sessions from "./checkout-sessions.ts";
import { retrieveCustomer } from "./customers.ts";
import type { EmulatorDeps } from "./deps.ts";
import { retrieveDispute } from "./disputes.ts";
import { StripeApiError } from "./errors.ts";
import { parseStripeForm } from "./form.ts";
import { listInvoices, retrieveInvoice } from "./invoices.ts";
import { listPage } from "./list.ts";
import { retrievePaymentIntent } from "./payment-intents.ts";
import * as promotions from "./promotions.ts";
import { createRefund, retrieveRefund } from "./refunds.ts";
import * as subscriptions from "./subscriptions.ts";

export interface StripeHttpRequest {
  method: string;
  /** The path with its query string: /v1/invoices?subscription=sub_1 */
  url: string;
  /** The form-encoded body ("" for none). */
  body: string;
  /** Lower-case names, as Node gives them: authorization, idempotency-key. */
  headers: Record<string, string | string[] | undefined>;
}

export interface StripeHttpResponse {
  status: number;
  body: unknown;
}

const header = (request: StripeHttpRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === "string" ? value : null;
};

const unrecognized = (method: string, path: string) =>
  new StripeApiError(404, {
    error: {
      message: `Unrecognized request URL (${method}: ${path})`,
      type: "invalid_request_error",
    },
  });

/**
 * Stripe's API over the emulator: a request (method, URL, form body, headers) to the status
 * and JSON Stripe would answer. A wrong secret key is a 401; a missing object Stripe's 404.
 */
export async function handleStripeRequest(
  deps: EmulatorDeps,
  secretKey: string,
  request: StripeHttpRequest,
): Promise<StripeHttpResponse> {
  const key = /^Bearer (.+)$/.exec(header(request, "authorization") ?? "")?.[1] ?? "";
  if (key !== secretKey) {
    return {
      status: 401,
      body: {
        error: {
          message: `Invalid API Key provided: ${key.slice(0, 8)}********${key.slice(-4)}`,
          type: "invalid_request_error",
        },
      },
    };
  }
  try {
    return { status: 200, body: await route(deps, request) };
  } catch (error) {
    if (error instanceof StripeApiError) return { status: error.status, body: error.body };
    throw error;
  }
}

async function route(deps: EmulatorDeps, request: StripeHttpRequest): Promise<unknown> {
  const url = new URL(request.url, "http://localhost");
  const path = url.pathname;
  const query = parseStripeForm(url.search.slice(1));
  const body = parseStripeForm(request.body);
  const idempotencyKey = header(request, "idempotency-key");
  const { method } = request;
  const [, resource, objectId, action] = path.split("/").filter(Boolean);
  const id = String(objectId);
  const creating = method === "POST" && !objectId;

  if (method === "GET" && path === "/v1/balance") {
    return {
      object: "balance",
      available: [{ amount: 1234, currency: "usd", source_types: { card: 1234 } }],
      pending: [],
      livemode: false,
    };
  }
  switch (resource) {
    case "products":
      if (creating) return catalogue.createProduct(deps, body);
      if (method === "GET" && !objectId) {
        return listPage(await catalogue.listProducts(deps), query);
      }
      if (method === "POST") return catalogue.updateProduct(deps, id, body);
      return catalogue.retrieveProduct(deps, id);
    case "prices":
      if (creating) return catalogue.createPrice(deps, body);
      if (method === "POST") return catalogue.updatePrice(deps, id, body);
      return catalogue.retrievePrice(deps, id);
    case "coupons":
      if (creating) return promotions.createCoupon(deps, body);
      return promotions.retrieveCoupon(deps, id);
    case "promotion_codes":
      if (creating) return promotions.createPromotionCode(deps, body);
      if (method === "POST") return promotions.updatePromotionCode(deps, id, body);
      return promotions.retrievePromotionCode(deps, id);
    case "checkout": {
      if (objectId !== "sessions") break;
      if (method === "POST" && !action) return sessions.createCheckoutSession(deps, body);
      if (method === "GET" && !action) {
        return listPage(await sessions.listCheckoutSessions(deps, query), query);
      }
      return sessions.retrieveCheckoutSession(deps, String(action));
    }
    case "payment_intents":
      return retrievePaymentIntent(deps, id);
    case "customers":
      return retrieveCustomer(deps, id);
    case "refunds":
      if (creating) return createRefund(deps, body, idempotencyKey);
      return retrieveRefund(deps, id);
    case "charges":
      return retrieveCharge(deps, id);
    case "disputes":
      return retrieveDispute(deps, id);
    case "subscriptions":
      if (method === "DELETE") return subscriptions.cancelSubscription(deps, id);
      if (method === "POST") {
        return subscriptions.updateSubscription(deps, id, body, idempotencyKey);
      }
      return subscriptions.retrieveSubscription(deps, id);
    case "invoices":
      if (method === "POST" && objectId === "create_preview") {
        return subscriptions.previewPriceChange(deps, body);
      }
      if (method === "GET" && !objectId) {
        return listPage(await listInvoices(deps, query), query);
      }
      return retrieveInvoice(deps, id);
  }
  throw unrecognized(method, path);
}
