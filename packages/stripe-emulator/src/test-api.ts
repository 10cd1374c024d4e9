import { createStripeEmulator, type StripeEmulator } from "./emulator.ts";
import type { Json } from "./json.ts";

/** For the package's tests: an emulator on a settable clock, and its API called as the SDK does. */
export const TEST_KEY = "sk_test_emulator";

export function emulatorAt(startMs: number) {
  const clock = { ms: startMs };
  const emulator = createStripeEmulator({ secretKey: TEST_KEY, now: () => clock.ms });
  return { emulator, clock };
}

export async function api(
  emulator: StripeEmulator,
  method: string,
  url: string,
  form: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const answer = await emulator.handle({
    method,
    url,
    body: new URLSearchParams(form).toString(),
    headers: { authorization: `Bearer ${TEST_KEY}`, ...headers },
  });
  return { status: answer.status, body: answer.body as Json };
}

/** A monthly price of `amount` cents, a checkout of it paid: the subscription. */
export async function subscribed(emulator: StripeEmulator, amount: number) {
  const product = await api(emulator, "POST", "/v1/products", { name: "Plan" });
  const price = await priceOf(emulator, String(product.body.id), amount);
  const session = await api(emulator, "POST", "/v1/checkout/sessions", {
    mode: "subscription",
    "line_items[0][price]": String(price.id),
    "line_items[0][quantity]": "1",
  });
  const done = await emulator.completeCheckout(String(session.body.id));
  return { product, price, subscription: done.subscription as Json };
}

export async function priceOf(emulator: StripeEmulator, productId: string, amount: number) {
  const price = await api(emulator, "POST", "/v1/prices", {
    product: productId,
    unit_amount: String(amount),
    currency: "usd",
    "recurring[interval]": "month",
  });
  return price.body;
}
