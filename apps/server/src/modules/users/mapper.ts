import type {
  Admin,
  AdminUserDetail,
  AdminUserListItem,
  MoneyMetric,
  User,
} from "@twinline/contracts";
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

/**
 * A user's subscription as every answer shows it. THE one place that reads it: the user's
 * newest subscription (billing's user_subscriptions), with its plan.
 * - status "active": in force and renewing (a past-due renewal still counts while Stripe retries);
 * - "canceled": set to cancel at the period end (the user-side "Canceling"), in force until then;
 * - "inactive": none, or ended.
 */
export interface SubscriptionView {
  status: "active" | "canceled" | "inactive";
  planId: string | null;
  planName: string | null;
  plan: { name: string; price: number; duration: number } | null;
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

/** A plan's period in months, as the admin's "monthly / quarterly / yearly" reads it. */
function durationInMonths(interval: string, count: number): number {
  if (interval === "year") return 12 * count;
  if (interval === "month") return count;
  if (interval === "week") return Math.round(count / 4);
  return 0;
}

type SubscriptionWithPlan = {
  subscription: UserSubscriptionRow;
  plan: Pick<SubscriptionPlanRow, "name" | "interval" | "intervalCount">;
};

export function toSubscriptionView(found: SubscriptionWithPlan | undefined): SubscriptionView {
  if (!found) return NO_SUBSCRIPTION;
  const { subscription: row, plan } = found;
  const inForce = row.status === "active" || row.status === "past_due";
  return {
    status: !inForce ? "inactive" : row.cancelAtPeriodEnd ? "canceled" : "active",
    planId: row.planId,
    planName: plan.name,
    plan: {
      name: plan.name,
      price: row.priceMinor / 100,
      duration: durationInMonths(plan.interval, plan.intervalCount),
    },
    currentPeriodStart: row.currentPeriodStart.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    autoRenew: inForce && !row.cancelAtPeriodEnd,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    stripeSubscriptionId: row.providerSubscriptionId,
  };
}

/** The newest subscription of each user (with its plan), by user id. */
export async function latestSubscriptions(
  db: Database,
  userIds: string[],
): Promise<Map<string, SubscriptionWithPlan>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([userSubscriptions.userId], {
      subscription: userSubscriptions,
      plan: {
        name: subscriptionPlans.name,
        interval: subscriptionPlans.interval,
        intervalCount: subscriptionPlans.intervalCount,
      },
    })
    .from(userSubscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, userSubscriptions.planId))
    .where(inArray(userSubscriptions.userId, userIds))
    .orderBy(userSubscriptions.userId, desc(userSubscriptions.createdAt));
  return new Map(rows.map((row) => [row.subscription.userId, row]));
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
 * Whether the subscription carries the subscriber's rights (unlimited chat, "premium"): active,
 * or canceled but still inside the period already paid for.
 */
export function hasActiveSubscription(
  subscription: Pick<SubscriptionView, "status" | "currentPeriodEnd">,
  now: Date = new Date(),
): boolean {
  if (subscription.status === "active") return true;
  return (
    subscription.status === "canceled" &&
    subscription.currentPeriodEnd !== null &&
    new Date(subscription.currentPeriodEnd) > now
  );
}

/**
 * hasActiveSubscription as SQL, for filters over many users (the chat logs' plan filter): the
 * user's `subscribed_until`, which a trigger keeps from their newest subscription by the same
 * rule (migration 0011), is still ahead. Needs `users` in the query.
 */
export function hasActiveSubscriptionSql(): SQL<boolean> {
  return sql<boolean>`coalesce(${users.subscribedUntil} > now(), false)`;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The user object of the user-side spec (auth answers, GET /api/auth/me, profile). */
export function toUser(user: UserRow, subscription: SubscriptionView = NO_SUBSCRIPTION): User {
  return {
    _id: user.id,
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    googleId: user.googleId,
    profileImage: user.profileImage,
    credits: user.credits,
    subscription: {
      status: subscription.status,
      planId: subscription.planId,
      planName: subscription.planName,
      endDate: subscription.currentPeriodEnd,
    },
    createdAt: user.createdAt.toISOString(),
  };
}

export function toAdmin(user: UserRow): Admin {
  return { _id: user.id, id: user.id, name: user.name, email: user.email, role: "admin" };
}

export function toAdminListItem(
  user: UserRow,
  subscription: SubscriptionView = NO_SUBSCRIPTION,
): AdminUserListItem {
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    profileImage: user.profileImage,
    createdAt: user.createdAt.toISOString(),
    lastLogin: iso(user.lastLogin),
    lastActive: iso(user.lastActiveAt),
    credits: user.credits,
    isActive: user.isActive,
    role: user.role,
    subscription: { status: subscription.status, planId: subscription.planId },
  };
}

/** Figures of the user kept by other modules (chat), read by the admin service. */
export interface AdminUserFigures {
  /** Messages answered today (UTC), from the chat's daily counter. */
  dailyMessageCount: number;
  /** Successful payments (credits and subscriptions) per currency, major units. */
  totalSpent?: MoneyMetric;
  subscription?: SubscriptionView;
}

export function toAdminUserDetail(
  user: UserRow,
  figures: AdminUserFigures = { dailyMessageCount: 0 },
): AdminUserDetail {
  const {
    planId: _planId,
    planName: _planName,
    ...subscription
  } = figures.subscription ?? NO_SUBSCRIPTION;
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    profileImage: user.profileImage,
    isActive: user.isActive,
    role: user.role,
    createdAt: user.createdAt.toISOString(),
    lastLogin: iso(user.lastLogin),
    lastActive: iso(user.lastActiveAt),
    dailyMessageCount: figures.dailyMessageCount,
    credits: user.credits,
    totalSpent: figures.totalSpent?.value ?? 0,
    totalSpentByCurrency: figures.totalSpent?.byCurrency ?? [{ currency: "usd", value: 0 }],
    googleId: user.googleId,
    subscription,
  };
}
