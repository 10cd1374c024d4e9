import type { Json } from "./json.ts";

/** A refusal in Stripe's error shape; the HTTP adapter answers it with its status. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error: Json },
  ) {
    super(String(body.error.message));
  }
}

export const notFound = (what: string, key: string) =>
  new StripeApiError(404, {
    error: {
      type: "invalid_request_error",
      code: "resource_missing",
      message: `No such ${what}: '${key}'`,
    },
  });

export const invalidRequest = (message: string, code?: string) =>
  new StripeApiError(400, {
    error: { type: "invalid_request_error", ...(code ? { code } : {}), message },
  });
