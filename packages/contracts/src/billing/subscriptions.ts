import { z } from "zod";
import {
  currencySchema,
  planIntervalSchema,
  type SubscriptionViewStatus,
  subscriptionStatusSchema,
  subscriptionViewStatusSchema,
} from "./shared";

// The user's subscription (user-side sections 2, 3, 4).

/**
 * The one reading of the subscription status the API answers (users/subscription-state.ts
 * decides it): "canceled" is set to cancel at the period end and still in force, shown as
 * Canceling on the user side (user-side section 4) and Canceled in the admin's users list.
 */
export const SUBSCRIPTION_STATUS_LABELS = {
  active: "Active",
  trialing: "Trialing",
  canceled: "Canceling",
  inactive: "Inactive",
} as const satisfies Record<SubscriptionViewStatus, string>;

/**
 * Whether a status carries a plan in force (active, in a free trial, or canceling until its
 * period ends).
 */
export const isSubscribed = (status: SubscriptionViewStatus): boolean => status !== "inactive";

/**
 * The status as every screen words it, with the date it turns on: "Trialing until Dec 7, 2026"
 * (the trial's end, when the first charge is made), "Canceling · ends …" (user side). `date` is
 * the screen's own formatting of the period end.
 */
export const subscriptionStatusText = (
  status: SubscriptionViewStatus,
  periodEnd: string | null | undefined,
  date: (iso: string) => string,
): string => {
  const label = SUBSCRIPTION_STATUS_LABELS[status];
  if (!periodEnd) return label;
  if (status === "trialing") return `${label} until ${date(periodEnd)}`;
  return label;
};

/** GET /api/subscriptions/my-subscription: always an object; "inactive" with no plan. */
export const currentSubscriptionSchema = z.object({
  _id: z.string().nullable(),
  /**
   * canceled: set to cancel at period end (shown as Canceling), still usable until endDate;
   * trialing: in a free trial that ends (and is first charged) at endDate.
   */
  status: subscriptionViewStatusSchema,
  /** The provider's own state (past_due while a renewal payment is failing). */
  providerStatus: subscriptionStatusSchema.nullable(),
  plan: z
    .object({
      _id: z.string(),
      name: z.string(),
      price: z.number(),
      currency: currencySchema,
      interval: planIntervalSchema,
      intervalCount: z.number().int(),
    })
    .nullable(),
  /** What this subscription pays per period (it stays on its price when the plan's changes). */
  price: z.number().nullable(),
  currency: currencySchema.nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  autoRenew: z.boolean(),
  cancelAtPeriodEnd: z.boolean(),
  stripeSubscriptionId: z.string().nullable(),
});
export type CurrentSubscription = z.infer<typeof currentSubscriptionSchema>;
export const mySubscriptionResponseSchema = z.object({
  success: z.literal(true),
  data: currentSubscriptionSchema,
  subscription: currentSubscriptionSchema,
});

/** POST /api/subscriptions/upgrade: the spec's plan change result. */
export const planChangeResultSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  subscription: currentSubscriptionSchema.extend({
    /**
     * The change's proration, major units: positive, charged to the card now for the rest of
     * the period; negative, credited to the next invoice (a downgrade); 0 or null: none.
     */
    proratedAmount: z.number().nullable(),
    /**
     * The part of an upgrade's proration paid from the account credit (earlier downgrades),
     * major units; 0 when none. proratedAmount is what the card paid beside it.
     */
    paidFromAccountCredit: z.number().min(0),
    currency: currencySchema.nullable(),
    previousPlan: z.object({ _id: z.string(), name: z.string(), price: z.number() }).nullable(),
    change: z.enum(["upgrade", "downgrade", "change"]),
  }),
});
export type PlanChangeResult = z.infer<typeof planChangeResultSchema>;

/** POST /api/subscriptions/cancel. */
export const cancelSubscriptionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  subscription: currentSubscriptionSchema,
});

/** GET /api/users/credit-balance. */
export const creditBalanceResponseSchema = z.object({
  success: z.literal(true),
  available: z.number().int(),
});
