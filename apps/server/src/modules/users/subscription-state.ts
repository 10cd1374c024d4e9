import type { SubscriptionViewStatus } from "@twinline/contracts";
import { desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  type SubscriptionPlanRow,
  subscriptionPlans,
  type UserRow,
  type UserSubscriptionRow,
  userSubscriptions,
  users,
} from "../../db/schema/index.ts";
import { toMajor } from "../../lib/money.ts";

/**
 * THE rule of what a subscription row means to every screen (user overview, credits page and
 * dialog, /api/auth/me, the admin's users list and user details, chat's unlimited messages).
 * Its SQL twin is the DB function `subscribed_until_of` (migration 0011), kept by a trigger in
 * `users.subscribed_until`; both must say the same:
 * - in force: the provider's status is active, trialing (a free trial, decision 0083: the fan
 *   has the subscriber's rights, nothing is charged until it ends) or past_due (Stripe still
 *   retries), and, when set to cancel at the period end, the period has not ended yet;
 * - status "active": in force and renewing;
 * - status "trialing": in force, in its free trial and renewing: the first charge is made at
 *   the period end (the trial's end); set to cancel, it is "canceled" and ends then, unpaid;
 * - status "canceled": in force but set to cancel at the period end (the user side shows
 *   "Canceling", the admin's list "Canceled", its details "Cancels at period end");
 * - status "inactive": none, ended, unpaid or never paid.
 */
export interface SubscriptionView {
  status: SubscriptionViewStatus;
  planId: string | null;
  planName: string | null;
  plan: {
    name: string;
    price: number;
    currency: UserSubscriptionRow["currency"];
    duration: number;
    interval: SubscriptionPlanRow["interval"];
    intervalCount: number;
  } | null;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  autoRenew: boolean;
  cancelAtPeriodEnd: boolean;
  stripeSubscriptionId: string | null;
}

export const NO_SUBSCRIPTION: SubscriptionView = {
  status: "inactive",
  planId: null,
  planName: null,
  plan: null,
  currentPeriodStart: null,
  currentPeriodEnd: null,
  autoRenew: false,
  cancelAtPeriodEnd: false,
  stripeSubscriptionId: null,
};

/**
 * A plan's period in whole months, the spec's `duration` (1 monthly, 3 quarterly). Weekly and
 * daily plans have none (0): screens name them from `interval`, never from this number.
 */
function durationInMonths(interval: string, count: number): number {
  if (interval === "year") return 12 * count;
  if (interval === "month") return count;
  return 0;
}

export type SubscriptionWithPlan = {
  subscription: UserSubscriptionRow;
  plan: Pick<SubscriptionPlanRow, "name" | "interval" | "intervalCount">;
};

type StateRow = Pick<UserSubscriptionRow, "status" | "cancelAtPeriodEnd" | "currentPeriodEnd">;

/**
 * The statuses in which the provider still holds the subscription open: it renews (or will
 * charge at the end of its free trial), or retries a failed renewal (past_due). A user has at most one such row: checkout refuses a second plan, and
 * a second paid at the provider is ended and refunded. The first half of isInForce; alone, it is
 * what the plan counts and the one-plan guards read, whatever the period's end.
 */
export const OPEN_SUBSCRIPTION_STATUSES = [
  "active",
  "trialing",
  "past_due",
] as const satisfies readonly UserSubscriptionRow["status"][];

/** Whether the provider still holds the subscription open (OPEN_SUBSCRIPTION_STATUSES). */
export function isOpenSubscription(row: Pick<UserSubscriptionRow, "status">): boolean {
  return (OPEN_SUBSCRIPTION_STATUSES as readonly string[]).includes(row.status);
}

/** isOpenSubscription as SQL over `user_subscriptions`. */
export const isOpenSubscriptionSql = (): SQL =>
  inArray(userSubscriptions.status, [...OPEN_SUBSCRIPTION_STATUSES]);

/** Whether the subscription carries the subscriber's rights now (the rule above). */
export function isInForce(row: StateRow, now: Date = new Date()): boolean {
  if (!isOpenSubscription(row)) return false;
  return !row.cancelAtPeriodEnd || row.currentPeriodEnd > now;
}

/** The one status every screen shows for a subscription row. */
export function subscriptionStatusOf(
  row: StateRow | undefined,
  now: Date = new Date(),
): SubscriptionView["status"] {
  if (!row || !isInForce(row, now)) return "inactive";
  if (row.cancelAtPeriodEnd) return "canceled";
  return row.status === "trialing" ? "trialing" : "active";
}

export function toSubscriptionView(
  found: SubscriptionWithPlan | undefined,
  now: Date = new Date(),
): SubscriptionView {
  if (!found) return NO_SUBSCRIPTION;
  const { subscription: row, plan } = found;
  const status = subscriptionStatusOf(row, now);
  return {
    status,
    planId: row.planId,
    planName: plan.name,
    plan: {
      name: plan.name,
      price: toMajor(row.priceMinor),
      currency: row.currency,
      duration: durationInMonths(plan.interval, plan.intervalCount),
      interval: plan.interval,
      intervalCount: plan.intervalCount,
    },
    currentPeriodStart: row.currentPeriodStart.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    autoRenew: status === "active" || status === "trialing",
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    stripeSubscriptionId: row.providerSubscriptionId,
  };
}

/**
 * The order that makes a user's first row their current subscription: newest by the provider's
 * creation time, a tie (two created in one second) going to the one in force, then the id. The
 * trigger keeping `users.subscribed_until` orders the same way (migration 0030).
 */
export const NEWEST_SUBSCRIPTION_FIRST: SQL[] = [
  desc(userSubscriptions.createdAt),
  sql`subscribed_until_of(${userSubscriptions.status}, ${userSubscriptions.cancelAtPeriodEnd}, ${userSubscriptions.currentPeriodEnd}) desc nulls last`,
  desc(userSubscriptions.id),
];

/** THE current subscription of each user: their newest (with its plan), by user id. */
export async function latestSubscriptions(
  db: Database,
  userIds: string[],
): Promise<Map<string, { subscription: UserSubscriptionRow; plan: SubscriptionPlanRow }>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([userSubscriptions.userId], {
      subscription: userSubscriptions,
      plan: subscriptionPlans,
    })
    .from(userSubscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, userSubscriptions.planId))
    .where(inArray(userSubscriptions.userId, userIds))
    .orderBy(userSubscriptions.userId, ...NEWEST_SUBSCRIPTION_FIRST);
  // Rows of the given users only: none is detached (userId null, decision 0063).
  return new Map(
    rows.flatMap((row) => (row.subscription.userId ? [[row.subscription.userId, row]] : [])),
  );
}

/** The user's subscription as every answer shows it. */
export async function subscriptionOf(db: Database, userId: string): Promise<SubscriptionView> {
  return toSubscriptionView((await latestSubscriptions(db, [userId])).get(userId));
}

/** subscriptionOf for a page of users, in one query. */
export async function subscriptionsOf(
  db: Database,
  userIds: string[],
): Promise<Map<string, SubscriptionView>> {
  const found = await latestSubscriptions(db, userIds);
  return new Map(userIds.map((id) => [id, toSubscriptionView(found.get(id))]));
}

/**
 * Whether an account's subscription carries the subscriber's rights now, from its own row: the
 * `subscribed_until` the trigger keeps (migration 0011, the rule of isInForce, so the same answer
 * as isInForce on their newest subscription, without reading the subscriptions). A renewing
 * subscription keeps it at 'infinity', which the driver reads as an invalid Date.
 */
export function isSubscribedAccount(
  user: Pick<UserRow, "subscribedUntil">,
  now: Date = new Date(),
): boolean {
  const until = user.subscribedUntil;
  if (until === null) return false;
  return Number.isNaN(until.getTime()) || until > now;
}

/**
 * isInForce as SQL, for filters over many users (the chat logs' plan filter): the user's
 * `subscribed_until`, which a trigger keeps from their newest subscription through
 * `subscribed_until_of` (migration 0011, the same rule), is still ahead. Needs `users`.
 */
export function hasActiveSubscriptionSql(): SQL<boolean> {
  return sql<boolean>`coalesce(${users.subscribedUntil} > now(), false)`;
}
