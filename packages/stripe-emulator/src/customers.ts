import { type EmulatorDeps, mustGet } from "./deps.ts";
import type { Json } from "./json.ts";
import { StripeObjects } from "./store.ts";

/** The customer, made (balance 0) the first time a checkout names it. */
export async function customerOf(deps: EmulatorDeps, customerId: string): Promise<Json> {
  const fresh: Json = {
    id: customerId,
    object: "customer",
    balance: 0,
    currency: null,
    created: deps.clock.now(),
  };
  await deps.store.create(customerId, StripeObjects.customer, fresh);
  return mustGet(deps, customerId, "customer");
}

export const retrieveCustomer = (deps: EmulatorDeps, customerId: string) =>
  mustGet(deps, customerId, "customer");

/**
 * Changes a customer's balance by what `change` answers for the balance it reads
 * (compare-and-set on the balance: two invoices at once never lose one's credit). Answers the
 * balance before and after.
 */
export async function changeBalance(
  deps: EmulatorDeps,
  customerId: string,
  change: (balance: number) => number,
): Promise<{ starting: number; ending: number }> {
  for (;;) {
    const customer = await customerOf(deps, customerId);
    const starting = Number(customer.balance);
    const ending = starting + change(starting);
    if (ending === starting) return { starting, ending };
    const updated = { ...customer, balance: ending };
    if (await deps.store.transition(customerId, String(starting), updated, "balance")) {
      return { starting, ending };
    }
  }
}
