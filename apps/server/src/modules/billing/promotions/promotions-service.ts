import type { Database } from "../../../db/client.ts";
import { bindFirst } from "../../../lib/bind-first.ts";
import type { Clock } from "../../../lib/clock.ts";
import type { PaymentsProvider } from "../../../providers/payments/index.ts";
import { create, list, setActive } from "./promotion-admin.ts";
import { preview, providerDiscount, reserve } from "./promotion-checkout.ts";

export {
  type AppliedPromotion,
  discountFor,
  type PromotionTarget,
  saleAfterProviderRounding,
  toPromotionCode,
} from "./promotion-terms.ts";

/**
 * Promotion codes (issue 27 item 4; docs/decisions/0083): the admin's codes (each write audited
 * in its transaction) and the checkout's check and hold of a use.
 */
export function createPromotionsService(options: {
  db: Database;
  payments: () => Promise<PaymentsProvider>;
  clock: Clock;
}) {
  const { db, payments, clock } = options;
  const deps = { db, payments, now: () => new Date(clock.now()) };
  return bindFirst(deps, { list, create, setActive, preview, reserve, providerDiscount });
}

export type PromotionsService = ReturnType<typeof createPromotionsService>;
