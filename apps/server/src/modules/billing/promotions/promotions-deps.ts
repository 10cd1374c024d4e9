import type { Database } from "../../../db/client.ts";
import type { PaymentsProvider } from "../../../providers/payments/index.ts";

/** What the promotions' use cases share: the options, and the billing clock's time. */
export interface PromotionsDeps {
  db: Database;
  payments: () => Promise<PaymentsProvider>;
  now: () => Date;
}
