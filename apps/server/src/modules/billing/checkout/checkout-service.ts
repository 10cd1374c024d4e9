import { randomUUID } from "node:crypto";
import {
  BILLING_MESSAGES,
  CHECKOUT_RETURN_PATHS,
  type CheckoutSessionView,
  CONSENT_MESSAGES,
  CONSENT_VERSIONS,
  type ConsentKind,
  creditsConsentText,
  MONEY_TOOLS_MESSAGES,
  PROMOTION_MESSAGES,
  planConsentText,
  planTrialTerms,
  type SandboxPayRequest,
} from "@twinline/contracts";
import { and, eq, gt, lte } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import {
  type CheckoutSessionRow,
  checkoutConsents,
  checkoutSessions,
  type SubscriptionPlanRow,
  type UserRow,
  users,
} from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { discountedMinor, toMajor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import {
  CardError,
  type CheckoutItem,
  type PaymentsProvider,
  type SandboxPayments,
  SessionClosedError,
  sandboxId,
} from "../../../providers/payments/index.ts";
import { BalanceFullError, balanceHolds } from "../../credits/ledger.ts";
import { isOpenSubscription } from "../../users/subscription-state.ts";
import type { CatalogueService } from "../catalogue/catalogue-service.ts";
import { recordFailedCheckout } from "../fulfilment/failed-payments.ts";
import type { Fulfilment } from "../fulfilment/fulfilment.ts";
import {
  type AppliedPromotion,
  type PromotionsService,
  type PromotionTarget,
  saleAfterProviderRounding,
} from "../promotions/promotions-service.ts";
import { providerCall } from "../provider-call.ts";
import type { SubscriptionsReader } from "../subscriptions/subscriptions-reader.ts";

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

function toView(row: CheckoutSessionRow, now: Date): CheckoutSessionView {
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

/** Card errors that are the issuer's answer; the others are the form's checks. */
const DECLINE_CODES = new Set(["card_declined", "expired_card"]);

/** What is sold, at the provider's price when Stripe has one (plan changes sell the same item). */
export const planItem = (plan: SubscriptionPlanRow, provider: PaymentsProvider): CheckoutItem => ({
  name: plan.name,
  description: plan.description,
  amountMinor: plan.priceMinor,
  currency: plan.currency,
  priceId: provider.mode === "stripe" ? plan.stripePriceId : null,
  recurring: { interval: plan.interval, intervalCount: plan.intervalCount },
});

/** What the fan ticked: the version of the consent text, and the address they asked from. */
export interface ConsentGiven {
  version: string;
  ipAddress: string;
}

/**
 * The consent a checkout stores: the words the server renders from what it charges (never the
 * client's), checked against the version of the box the fan ticked (decision 0064).
 */
const consentFor = (kind: ConsentKind, given: ConsentGiven, text: string) => {
  if (given.version !== CONSENT_VERSIONS[kind]) {
    throw new HttpError(400, CONSENT_MESSAGES.stale, { field: "consentVersion" });
  }
  return { kind, version: given.version, text, ipAddress: given.ipAddress };
};

/** Where a package checkout and a plan checkout differ; the session and its row are one path. */
interface CheckoutOf {
  mode: "payment" | "subscription";
  successPath: string;
  cancelPath: string;
  item: (provider: PaymentsProvider) => CheckoutItem;
  metadata: Record<string, string>;
  /** Free trial days the subscription starts with (plans only; 0: none). */
  trialDays?: number;
  /** What our row says is sold (the item's description may be a fallback; this one is not). */
  recorded: Pick<
    typeof checkoutSessions.$inferInsert,
    | "packageId"
    | "planId"
    | "priceId"
    | "itemName"
    | "description"
    | "amountMinor"
    | "currency"
    | "credits"
  >;
  consent: ReturnType<typeof consentFor>;
  /** The promotion code given, checked; its use is held when the session is recorded. */
  promotion: { applied: AppliedPromotion; target: PromotionTarget } | null;
}

/**
 * Checkout: a hosted page (Stripe Checkout, or the sandbox page of this app) for a package or a
 * plan. Nothing is granted here: credits and subscriptions land only when the payment's event
 * is fulfilled (fulfilment.ts), never on the redirect back.
 */
export function createCheckoutService(options: CheckoutServiceOptions) {
  const { db, catalogue, payments, sandbox, fulfilment, subscriptions, promotions, clock } =
    options;
  const now = () => new Date(clock.now());

  /** A code given at checkout, checked against the purchase (400s name `promotionCode`). */
  const promotionFor = async (
    userId: string,
    code: string | undefined,
    target: PromotionTarget,
  ): Promise<CheckoutOf["promotion"]> =>
    code ? { applied: await promotions.preview(userId, code, target), target } : null;

  /**
   * The session is recorded only after the provider made it: a fulfilment event that arrives
   * before this insert commits fails and is delivered again (decision 0017).
   */
  const startCheckout = async (user: UserRow, origin: string, of: CheckoutOf) => {
    const provider = await payments();
    const successUrl = `${origin}${of.successPath}`;
    const cancelUrl = `${origin}${of.cancelPath}`;
    const discount = of.promotion
      ? await promotions.providerDiscount(of.promotion.applied, provider)
      : null;
    const created = await providerCall(() =>
      provider.createCheckoutSession({
        mode: of.mode,
        userId: user.id,
        email: user.email,
        item: of.item(provider),
        successUrl,
        cancelUrl,
        metadata: of.metadata,
        discount,
        trialDays: of.trialDays ?? 0,
      }),
    );
    const discountMinor = of.promotion?.applied.discountMinor ?? 0;
    const sale = of.promotion
      ? saleAfterProviderRounding(
          { amountMinor: of.recorded.amountMinor, discountMinor },
          created.amountTotalMinor,
        )
      : { amountMinor: of.recorded.amountMinor, discountMinor };
    try {
      // The session and the consent it was opened under are written together, or neither is.
      await db.transaction(async (tx) => {
        // The code's use is held with the session, counted under its lock (a race's loser is
        // told it is used up, and this session's URL is never answered).
        if (of.promotion) {
          await promotions.reserve(tx, of.promotion.applied.row.id, user.id, of.promotion.target);
        }
        await tx.insert(checkoutSessions).values({
          sessionId: created.sessionId,
          provider: provider.mode,
          mode: of.mode,
          userId: user.id,
          ...of.recorded,
          amountMinor: sale.amountMinor,
          promotionCodeId: of.promotion?.applied.row.id ?? null,
          promotionCode: of.promotion?.applied.row.code ?? null,
          discountMinor: sale.discountMinor,
          url: created.url,
          successUrl,
          cancelUrl,
          createdAt: now(),
          expiresAt: created.expiresAt,
        });
        await tx.insert(checkoutConsents).values({
          checkoutSessionId: created.sessionId,
          userId: user.id,
          ...of.consent,
          packageId: of.recorded.packageId ?? null,
          planId: of.recorded.planId ?? null,
          amountMinor: of.recorded.amountMinor,
          currency: of.recorded.currency,
        });
      });
    } catch (error) {
      // A parallel plan checkout of the same user was recorded first (decision 0051); this
      // session's URL is never answered, so it cannot be paid.
      if (isUniqueViolation(error)) throw new HttpError(409, MONEY_TOOLS_MESSAGES.planCheckoutOpen);
      throw error;
    }
    return { url: created.url, sessionId: created.sessionId };
  };

  /**
   * One plan at a time: a subscription the provider still holds open (active or past due,
   * users/subscription-state.ts) refuses another plan's checkout with 409.
   */
  const refuseSecondPlan = async (user: UserRow) => {
    const current = await subscriptions.currentRow(user.id);
    if (current && isOpenSubscription(current)) {
      throw new HttpError(409, BILLING_MESSAGES.alreadySubscribed);
    }
  };

  /**
   * One plan checkout open per user (decision 0051): sessions past their expiry are closed
   * first; one still open answers 409. The partial unique index settles parallel requests.
   */
  const refuseOpenPlanCheckout = async (user: UserRow) => {
    const at = now();
    const open = and(
      eq(checkoutSessions.userId, user.id),
      eq(checkoutSessions.mode, "subscription"),
      eq(checkoutSessions.status, "open"),
    );
    await db
      .update(checkoutSessions)
      .set({ status: "expired" })
      .where(and(open, lte(checkoutSessions.expiresAt, at)));
    const [still] = await db
      .select({ id: checkoutSessions.id })
      .from(checkoutSessions)
      .where(and(open, gt(checkoutSessions.expiresAt, at)))
      .limit(1);
    if (still) throw new HttpError(409, MONEY_TOOLS_MESSAGES.planCheckoutOpen);
  };

  /**
   * Credits that the balance could not hold would be paid for and never granted (issue 24): the
   * checkout is refused before anything is charged.
   */
  const refuseFullBalance = async (userId: string, credits: number) => {
    const [row] = await db
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, userId));
    if (!balanceHolds(row?.credits ?? 0, credits)) throw new BalanceFullError();
  };

  const ownRow = async (user: UserRow, sessionId: string): Promise<CheckoutSessionRow> => {
    const [row] = await db
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.sessionId, sessionId), eq(checkoutSessions.userId, user.id)));
    if (!row) throw new HttpError(404, BILLING_MESSAGES.sessionNotFound);
    return row;
  };

  /**
   * A sandbox session paid at the "provider" but not fulfilled (the fulfilment failed after the
   * card was charged): delivered again, as Stripe retries a failed webhook.
   */
  const reconcileSandbox = async (row: CheckoutSessionRow): Promise<CheckoutSessionRow> => {
    if (row.provider !== "sandbox" || row.fulfilledAt) return row;
    const session = await sandbox.retrieveCheckoutSession(row.sessionId);
    if (session?.status !== "complete" || session.paymentStatus !== "paid") return row;
    await fulfilment.handle(
      {
        id: sandboxId("evt"),
        type: "checkout.session.completed",
        created: Math.floor(clock.now() / 1000),
        data: { object: { id: row.sessionId, object: "checkout.session" } },
      },
      sandbox,
    );
    const [fresh] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, row.id));
    return fresh ?? row;
  };

  const viewOf = async (row: CheckoutSessionRow): Promise<CheckoutSessionView> => {
    const view = toView(row, now());
    if (row.planId) {
      const plan = await catalogue.findPlanAnyState(row.planId);
      if (plan) Object.assign(view, { interval: plan.interval, intervalCount: plan.intervalCount });
    }
    return view;
  };

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
      const listMinor = discountedMinor(pack.priceMinor, pack.discountBasisPoints);
      const promotion = await promotionFor(user.id, promotionCode, {
        kind: "package",
        amountMinor: listMinor,
        currency: pack.currency,
      });
      // What the fan pays; the credits are the package's whatever the code took off.
      const amountMinor = listMinor - (promotion?.applied.discountMinor ?? 0);
      const consent = consentFor(
        "credits",
        consentGiven,
        creditsConsentText({
          credits: pack.credits,
          price: toMajor(amountMinor),
          currency: pack.currency,
        }),
      );
      await refuseFullBalance(user.id, pack.credits);
      return startCheckout(user, origin, {
        mode: "payment",
        successPath: CHECKOUT_RETURN_PATHS.packageSuccess,
        cancelPath: CHECKOUT_RETURN_PATHS.packageCancel,
        item: (provider) => ({
          name: pack.name,
          description: pack.description || `${pack.credits} credits`,
          amountMinor: listMinor,
          currency: pack.currency,
          priceId: provider.mode === "stripe" ? pack.stripePriceId : null,
          recurring: null,
        }),
        metadata: { kind: "credits", userId: user.id, packageId: pack.id },
        recorded: {
          packageId: pack.id,
          priceId: pack.stripePriceId,
          itemName: pack.name,
          description: pack.description,
          amountMinor,
          currency: pack.currency,
          credits: pack.credits,
        },
        consent,
        promotion,
      });
    },

    /** POST /api/subscriptions/create-checkout {planId}: refused while a subscription is open. */
    async planCheckout(
      user: UserRow,
      planId: string,
      origin: string,
      consentGiven: ConsentGiven,
      promotionCode?: string,
    ) {
      await refuseSecondPlan(user);
      await refuseOpenPlanCheckout(user);
      const plan = await catalogue.planForCheckout(planId);
      // One free trial per fan, ever (decision 0083): only a fan who never had a subscription.
      const trialDays =
        plan.trialDays > 0 && !(await subscriptions.currentRow(user.id)) ? plan.trialDays : 0;
      if (trialDays > 0 && promotionCode) {
        // Stripe would spend a once-only coupon on the trial's $0 invoice: refused, not wasted.
        throw new HttpError(400, PROMOTION_MESSAGES.notWithTrial, { field: "promotionCode" });
      }
      // A code lowers the first payment; the renewals are the plan's price (decision 0083).
      const promotion = await promotionFor(user.id, promotionCode, {
        kind: "plan",
        amountMinor: plan.priceMinor,
        currency: plan.currency,
      });
      const consent = consentFor(
        "plan",
        consentGiven,
        // With this fan's trial, the words say when the card is first charged (decision 0083).
        planConsentText(
          {
            price: toMajor(plan.priceMinor),
            currency: plan.currency,
            interval: plan.interval,
            intervalCount: plan.intervalCount,
          },
          trialDays > 0 ? planTrialTerms(trialDays, clock.now()) : null,
        ),
      );
      await refuseFullBalance(user.id, plan.credits);
      return startCheckout(user, origin, {
        mode: "subscription",
        successPath: CHECKOUT_RETURN_PATHS.planSuccess,
        cancelPath: CHECKOUT_RETURN_PATHS.planCancel,
        item: (provider) => planItem(plan, provider),
        metadata: { kind: "subscription", userId: user.id, planId: plan.id },
        trialDays,
        recorded: {
          planId: plan.id,
          priceId: plan.stripePriceId,
          itemName: plan.name,
          description: plan.description,
          // A trial's first invoice is $0: the first charge is a renewal at the trial's end.
          amountMinor:
            trialDays > 0 ? 0 : plan.priceMinor - (promotion?.applied.discountMinor ?? 0),
          currency: plan.currency,
          credits: plan.credits > 0 ? plan.credits : null,
        },
        consent,
        promotion,
      });
    },

    /** The session as its owner sees it (the sandbox page and the return pages). */
    async sessionView(user: UserRow, sessionId: string): Promise<CheckoutSessionView> {
      const row = await reconcileSandbox(await ownRow(user, sessionId));
      return viewOf(row);
    },

    /** The sandbox page's card form: charged, then fulfilled through the webhook's code. */
    async sandboxPay(user: UserRow, sessionId: string, card: SandboxPayRequest) {
      const owned = await ownRow(user, sessionId);
      if (owned.provider !== "sandbox") throw new HttpError(404, BILLING_MESSAGES.sessionNotFound);
      const row = await reconcileSandbox(owned);
      if (row.fulfilledAt) {
        // Paid already (a second click, or a retry after a failed fulfilment): the same answer.
        const view = await viewOf(row);
        return { redirectUrl: view.successUrl, data: view };
      }
      if (row.status !== "open" || row.expiresAt < now()) {
        throw new HttpError(409, BILLING_MESSAGES.sessionClosed);
      }
      // The balance may have grown since the session was made: checked again before the charge.
      await refuseFullBalance(user.id, row.credits ?? 0);
      if (row.mode === "subscription") await refuseSecondPlan(user);
      try {
        await sandbox.pay(sessionId, {
          cardNumber: card.cardNumber,
          expiry: card.expiry,
          cvc: card.cvc,
        });
      } catch (error) {
        if (error instanceof CardError) {
          // The issuer said no (not a form mistake): the attempt is a failed row (decision 0036).
          if (DECLINE_CODES.has(error.code)) {
            await db.transaction((tx) =>
              recordFailedCheckout(tx, row, {
                sourceKey: `checkout:${row.sessionId}:declined:${randomUUID()}`,
                reason: error.message,
              }),
            );
          }
          throw new HttpError(402, error.message, { code: error.code });
        }
        if (error instanceof SessionClosedError) {
          throw new HttpError(409, BILLING_MESSAGES.sessionClosed);
        }
        throw error;
      }
      const [fresh] = await db
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.id, row.id));
      const view = await viewOf(fresh ?? row);
      return { redirectUrl: view.successUrl, data: view };
    },

    /** The sandbox page's "cancel": back to the cancel URL, nothing charged. */
    async sandboxCancel(user: UserRow, sessionId: string) {
      const row = await ownRow(user, sessionId);
      if (row.provider !== "sandbox") throw new HttpError(404, BILLING_MESSAGES.sessionNotFound);
      if (row.status === "open") {
        await sandbox.cancel(sessionId);
        await db
          .update(checkoutSessions)
          .set({ status: "canceled" })
          .where(and(eq(checkoutSessions.id, row.id), eq(checkoutSessions.status, "expired")));
      }
      const [fresh] = await db
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.id, row.id));
      const view = await viewOf(fresh ?? row);
      return { redirectUrl: view.cancelUrl, data: view };
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
