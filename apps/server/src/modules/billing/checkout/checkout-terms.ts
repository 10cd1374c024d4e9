import {
  CHECKOUT_RETURN_PATHS,
  CONSENT_MESSAGES,
  CONSENT_VERSIONS,
  type ConsentKind,
  creditsConsentText,
  planConsentText,
  planTrialTerms,
} from "@twinline/contracts";
import type {
  CreditPackageRow,
  checkoutSessions,
  SubscriptionPlanRow,
} from "../../../db/schema/index.ts";
import { discountedMinor, toMajor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { CheckoutItem, PaymentsProvider } from "../../../providers/payments/index.ts";
import type { AppliedPromotion, PromotionTarget } from "../promotions/promotions-service.ts";

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
export const consentFor = (kind: ConsentKind, given: ConsentGiven, text: string) => {
  if (given.version !== CONSENT_VERSIONS[kind]) {
    throw new HttpError(400, CONSENT_MESSAGES.stale, { field: "consentVersion" });
  }
  return { kind, version: given.version, text, ipAddress: given.ipAddress };
};

/** A code given at checkout, checked against what it is for; null when none was given. */
export type CheckoutPromotion = { applied: AppliedPromotion; target: PromotionTarget } | null;

/** Where a package checkout and a plan checkout differ; the session and its row are one path. */
export interface CheckoutOf {
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
  promotion: CheckoutPromotion;
}

/** What a promotion code is checked against for a package: its price after its own discount. */
export const packageTarget = (pack: CreditPackageRow): PromotionTarget => ({
  kind: "package",
  amountMinor: discountedMinor(pack.priceMinor, pack.discountBasisPoints),
  currency: pack.currency,
});

/** A package's checkout; throws 400 when the consent ticked is not the current text's. */
export function packageCheckoutOf(
  pack: CreditPackageRow,
  userId: string,
  consentGiven: ConsentGiven,
  promotion: CheckoutPromotion,
): CheckoutOf {
  const listMinor = packageTarget(pack).amountMinor;
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
  return {
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
    metadata: { kind: "credits", userId, packageId: pack.id },
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
  };
}

/** What a promotion code is checked against for a plan: the first payment (decision 0083). */
export const planTarget = (plan: SubscriptionPlanRow): PromotionTarget => ({
  kind: "plan",
  amountMinor: plan.priceMinor,
  currency: plan.currency,
});

/**
 * A plan's checkout starting `trialDays` free (0: none) at `now` (ms); throws 400 when the
 * consent ticked is not the current text's.
 */
export function planCheckoutOf(
  plan: SubscriptionPlanRow,
  userId: string,
  consentGiven: ConsentGiven,
  promotion: CheckoutPromotion,
  trialDays: number,
  now: number,
): CheckoutOf {
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
      trialDays > 0 ? planTrialTerms(trialDays, now) : null,
    ),
  );
  return {
    mode: "subscription",
    successPath: CHECKOUT_RETURN_PATHS.planSuccess,
    cancelPath: CHECKOUT_RETURN_PATHS.planCancel,
    item: (provider) => planItem(plan, provider),
    metadata: { kind: "subscription", userId, planId: plan.id },
    trialDays,
    recorded: {
      planId: plan.id,
      priceId: plan.stripePriceId,
      itemName: plan.name,
      description: plan.description,
      // A trial's first invoice is $0: the first charge is a renewal at the trial's end.
      amountMinor: trialDays > 0 ? 0 : plan.priceMinor - (promotion?.applied.discountMinor ?? 0),
      currency: plan.currency,
      credits: plan.credits > 0 ? plan.credits : null,
    },
    consent,
    promotion,
  };
}
