import {
  type CheckoutSessionView,
  PROMOTION_MESSAGES,
  type SandboxPayRequest,
  trialDaysOffered,
} from "@twinline/contracts";
import type { Database } from "../../../db/client.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { PaymentsProvider, SandboxPayments } from "../../../providers/payments/index.ts";
import type { CatalogueService } from "../catalogue/catalogue-service.ts";
import type { Fulfilment } from "../fulfilment/fulfilment.ts";
import type { PromotionsService, PromotionTarget } from "../promotions/promotions-service.ts";
import type { SubscriptionsReader } from "../subscriptions/subscriptions-reader.ts";
import {
  ownSession,
  refuseFullBalance,
  refuseOpenPlanCheckout,
  refuseSecondPlan,
} from "./checkout-guards.ts";
import {
  type CheckoutPromotion,
  type ConsentGiven,
  packageCheckoutOf,
  packageTarget,
  planCheckoutOf,
  planTarget,
} from "./checkout-terms.ts";
import { reconcileSandbox, sandboxCancel, sandboxPay } from "./sandbox-page.ts";
import { sessionViewWithPlan } from "./session-view.ts";
import { startCheckout } from "./start-checkout.ts";

export interface CheckoutServiceOptions {
  db: Database;
  catalogue: CatalogueService;
  payments: () => Promise<PaymentsProvider>;
  sandbox: SandboxPayments;
  fulfilment: Fulfilment;
  subscriptions: SubscriptionsReader;
  promotions: PromotionsService;
  /** The billing clock: a session's age is read by the sweep on it, so it is written on it. */
  clock: Clock;
}

/**
 * Checkout: a hosted page (Stripe Checkout, or the sandbox page of this app) for a package or a
 * plan. Nothing is granted here: credits and subscriptions land only when the payment's event
 * is fulfilled (fulfilment.ts), never on the redirect back.
 */
export function createCheckoutService(options: CheckoutServiceOptions) {
  const { db, catalogue, subscriptions, promotions, clock } = options;
  const now = () => new Date(clock.now());
  const deps = { ...options, now };

  /** A code given at checkout, checked against the purchase (400s name `promotionCode`). */
  const promotionFor = async (
    userId: string,
    code: string | undefined,
    target: PromotionTarget,
  ): Promise<CheckoutPromotion> =>
    code ? { applied: await promotions.preview(userId, code, target), target } : null;

  return {
    /**
     * POST /api/payments/create-checkout-session {packageId}; `origin` is where the buyer comes
     * back to (lib/app-origin.ts).
     */
    async packageCheckout(
      user: UserRow,
      packageId: string,
      origin: string,
      consentGiven: ConsentGiven,
      promotionCode?: string,
    ) {
      const pack = await catalogue.packageForCheckout(packageId);
      const promotion = await promotionFor(user.id, promotionCode, packageTarget(pack));
      const of = packageCheckoutOf(pack, user.id, consentGiven, promotion);
      await refuseFullBalance(db, user.id, pack.credits);
      return startCheckout(deps, user, origin, of);
    },

    /** POST /api/subscriptions/create-checkout {planId}: refused while a subscription is open. */
    async planCheckout(
      user: UserRow,
      planId: string,
      origin: string,
      consentGiven: ConsentGiven,
      promotionCode?: string,
    ) {
      await refuseSecondPlan(subscriptions, user);
      await refuseOpenPlanCheckout(db, user, now());
      const plan = await catalogue.planForCheckout(planId);
      // One free trial per fan, ever (decision 0083): the contracts' rule, the web's too.
      const hadSubscription = (await subscriptions.currentRow(user.id)) !== undefined;
      const trialDays = trialDaysOffered(plan.trialDays, hadSubscription);
      if (trialDays > 0 && promotionCode) {
        // Stripe would spend a once-only coupon on the trial's $0 invoice: refused, not wasted.
        throw new HttpError(400, PROMOTION_MESSAGES.notWithTrial, { field: "promotionCode" });
      }
      // A code lowers the first payment; the renewals are the plan's price (decision 0083).
      const promotion = await promotionFor(user.id, promotionCode, planTarget(plan));
      const of = planCheckoutOf(plan, user.id, consentGiven, promotion, trialDays, clock.now());
      await refuseFullBalance(db, user.id, plan.credits);
      return startCheckout(deps, user, origin, of);
    },

    /** The session as its owner sees it (the sandbox page and the return pages). */
    async sessionView(user: UserRow, sessionId: string): Promise<CheckoutSessionView> {
      const row = await reconcileSandbox(deps, await ownSession(db, user, sessionId));
      return sessionViewWithPlan(catalogue, row, now());
    },

    /** The sandbox page's card form: charged, then fulfilled through the webhook's code. */
    sandboxPay: (user: UserRow, sessionId: string, card: SandboxPayRequest) =>
      sandboxPay(deps, user, sessionId, card),

    /** The sandbox page's "cancel": back to the cancel URL, nothing charged. */
    sandboxCancel: (user: UserRow, sessionId: string) => sandboxCancel(deps, user, sessionId),
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
