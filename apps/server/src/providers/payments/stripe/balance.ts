// The account's balance at Stripe.
import { call, type StripeDeps } from "./client.ts";

/** A read that proves the key works (the admin's key test): the available balance. */
export const retrieveBalance = (deps: StripeDeps) =>
  call(deps, async (client) => {
    const balance = await client.balance.retrieve();
    return balance.available.map(({ amount, currency }) => ({ amount, currency }));
  });
