import type { Database } from "../../../db/client.ts";
import type { Clock } from "../../../lib/clock.ts";
import type { PaymentsProvider, SandboxPayments } from "../../../providers/payments/index.ts";
import type { CatalogueService } from "../catalogue/catalogue-service.ts";
import type { Fulfilment } from "../fulfilment/fulfilment.ts";
import type { SubscriptionsReader } from "./subscriptions-reader.ts";

/**
 * Where a test makes a plan change die half-way (a crash: nothing after it runs): after the
 * claim was written, and after the provider made the change, before it was recorded here.
 */
export type PlanChangeProbe = (step: "claimed" | "provider-changed") => void | Promise<void>;

export interface SubscriptionsServiceOptions {
  db: Database;
  catalogue: CatalogueService;
  payments: () => Promise<PaymentsProvider>;
  sandbox: SandboxPayments;
  fulfilment: Fulfilment;
  reader: SubscriptionsReader;
  /** The billing clock (the plan-change sweep reads claims' ages by it). */
  clock: Clock;
}

/** What the subscriptions' use cases share: the options and the instance's test probe. */
export interface SubscriptionsDeps extends SubscriptionsServiceOptions {
  state: { probe: PlanChangeProbe | null };
}

/** Runs the test probe at `step`, when a test set one. */
export async function probe(deps: SubscriptionsDeps, step: Parameters<PlanChangeProbe>[0]) {
  if (deps.state.probe) await deps.state.probe(step);
}
