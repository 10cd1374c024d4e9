import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../../db/client.ts";
import type { Currency, PaymentsProvider } from "../../../providers/payments/index.ts";
import { knownCurrency } from "./verify-payment.ts";

/**
 * Where a test may make fulfilment fail half-way: called inside the transaction after each
 * step. Throwing rolls the whole event back (nothing is recorded, the event is not marked done).
 */
export type FulfilmentProbe = (
  step: "event-recorded" | "credits-granted" | "payment-recorded",
) => void | Promise<void>;

/** What one event's transaction found that must be acted on once it committed. */
export interface EventEffects {
  /** Users found with a second paid subscription (decision 0051): refunded after commit. */
  duplicateOf: Set<string>;
}

/**
 * Everything one event's transaction writes with: its transaction, provider, log, probe, and
 * the billing clock's time (when it was paid, failed, fulfilled, ended, refunded).
 */
export interface EventContext {
  tx: Database;
  now: () => Date;
  provider: PaymentsProvider;
  log: FastifyBaseLogger;
  probe: (step: Parameters<FulfilmentProbe>[0]) => Promise<void>;
  effects: EventEffects;
}

/** The provider's currency as ours; one this app never sells in is read as USD. */
export const currencyOf = (value: string): Currency => knownCurrency(value) ?? "usd";
