import type { EmulatorClock } from "./clock.ts";
import { notFound } from "./errors.ts";
import type { Json } from "./json.ts";
import type { EmulatorStore } from "./store.ts";

/** How a percentage off rounds a half minor unit (Stripe's rule is its own; tests flip it). */
export interface Rounding {
  percentHalf: "up" | "even";
}

/**
 * How a failed renewal is retried: `attempts` payments in all (the last decline leaves the
 * subscription unpaid), each retry `afterSeconds` after the one before (the open invoice's
 * next_payment_attempt). Stripe's Smart Retries are its own; the default is the sandbox's
 * shortened schedule, a second attempt a day later.
 */
export interface RenewalRetries {
  attempts: number;
  afterSeconds: number;
}

export const DEFAULT_RENEWAL_RETRIES: RenewalRetries = { attempts: 2, afterSeconds: 86_400 };

/** What every use case of the emulator works with: the state, the clock, the rules. */
export interface EmulatorDeps {
  store: EmulatorStore;
  clock: EmulatorClock;
  rounding: Rounding;
  /** A new id: `{prefix}_{hex}`, with the emulator's tag or the kind's (json.ts idMaker). */
  newId: (prefix: string, kindTag?: string) => string;
  /** The page where a buyer pays a checkout session (its `url`). */
  checkoutUrl: (session: Json) => string;
  renewalRetries: RenewalRetries;
}

/** The object named `object` (Stripe's object name) with this id, or Stripe's 404. */
export async function mustGet(deps: EmulatorDeps, id: string, object: string): Promise<Json> {
  const found = await deps.store.get(id);
  if (!found || found.object !== object) throw notFound(object, id);
  return found;
}

/** Writes a Stripe object under its own id and object name. */
export const save = (deps: EmulatorDeps, object: Json) =>
  deps.store.put(String(object.id), String(object.object), object);
