import type { CheckoutSessionView } from "@twinline/contracts";
import type { CheckoutSessionRow } from "../../../db/schema/index.ts";
import { toMajor } from "../../../lib/money.ts";
import type { CatalogueService } from "../catalogue/catalogue-service.ts";

/**
 * A checkout session as its owner sees it at `now`: an open session past its expiry reads as
 * expired before the sweep closes it (the expiry itself still open).
 */
export function sessionView(row: CheckoutSessionRow, now: Date): CheckoutSessionView {
  const expired = row.status === "open" && row.expiresAt < now;
  return {
    sessionId: row.sessionId,
    provider: row.provider,
    mode: row.mode,
    status: expired ? "expired" : row.status,
    paymentStatus:
      row.paymentStatus === "paid" ? "paid" : row.paymentStatus === "failed" ? "failed" : "unpaid",
    fulfilled: row.fulfilledAt !== null,
    itemName: row.itemName,
    description: row.description,
    amount: toMajor(row.amountMinor),
    amountBeforeDiscount: toMajor(row.amountMinor + row.discountMinor),
    discount: toMajor(row.discountMinor),
    promotionCode: row.promotionCode,
    currency: row.currency,
    credits: row.credits,
    interval: null,
    intervalCount: null,
    email: "",
    successUrl: row.successUrl.replaceAll("{CHECKOUT_SESSION_ID}", row.sessionId),
    cancelUrl: row.cancelUrl.replaceAll("{CHECKOUT_SESSION_ID}", row.sessionId),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** The view with the plan's billing period (a plan's session; the plan may be deleted since). */
export async function sessionViewWithPlan(
  catalogue: Pick<CatalogueService, "findPlanAnyState">,
  row: CheckoutSessionRow,
  now: Date,
): Promise<CheckoutSessionView> {
  const view = sessionView(row, now);
  if (row.planId) {
    const plan = await catalogue.findPlanAnyState(row.planId);
    if (plan) Object.assign(view, { interval: plan.interval, intervalCount: plan.intervalCount });
  }
  return view;
}
