import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { PaymentsProvider, SandboxPayments } from "../../providers/payments/index.ts";
import type { Fulfilment } from "./fulfilment/fulfilment.ts";

/**
 * What a billing safety-net sweep re-reads at the provider and settles through THE fulfilment
 * with: the checkout sweep's and the plan-change sweep's dependencies.
 */
export interface BillingSweepDeps {
  db: Database;
  payments: () => Promise<PaymentsProvider>;
  sandbox: SandboxPayments;
  fulfilment: Fulfilment;
  clock: Clock;
  log: FastifyBaseLogger;
}
