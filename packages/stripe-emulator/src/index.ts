/**
 * Stripe's behaviour in one place (issue 29 item 2, decision 0094): the fake Stripe of the tests
 * serves it over HTTP, and the sandbox checkout is to run the Stripe provider against it.
 */

export { TEST_CARD_THAT_PAYS } from "./cards.ts";
export { SessionNotOpenError } from "./checkout-payments.ts";
export * from "./clock.ts";
export {
  DEFAULT_RENEWAL_RETRIES,
  type EmulatorDeps,
  type RenewalRetries,
  type Rounding,
} from "./deps.ts";
export * from "./emulator.ts";
export * from "./errors.ts";
export * from "./fetch.ts";
export * from "./form.ts";
export * from "./http.ts";
export * from "./json.ts";
export * from "./memory-store.ts";
export * from "./periods.ts";
export * from "./store.ts";
