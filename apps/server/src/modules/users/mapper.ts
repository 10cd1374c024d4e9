import type { Admin, AdminUserDetail, AdminUserListItem, User } from "@twinline/contracts";
import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import type { UserRow } from "../../db/schema/index.ts";

/**
 * A user's subscription as every answer shows it. THE one place billing changes: until the
 * billing issue stores subscriptions, every account is "inactive" with nothing else known.
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

export function subscriptionOf(_user: UserRow): SubscriptionView {
  return {
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
 * hasActiveSubscription as SQL on a user id, for filters over many users (the chat logs' plan
 * filter). Changes together with subscriptionOf: billing replaces it with an EXISTS over its
 * subscriptions table; until then no account has a subscription.
 */
export function hasActiveSubscriptionSql(_userId: AnyColumn | SQL): SQL<boolean> {
  return sql<boolean>`false`;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The user object of the user-side spec (auth answers, GET /api/auth/me, profile). */
export function toUser(user: UserRow): User {
  const subscription = subscriptionOf(user);
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

export function toAdminListItem(user: UserRow): AdminUserListItem {
  const subscription = subscriptionOf(user);
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    profileImage: user.profileImage,
    createdAt: user.createdAt.toISOString(),
    lastLogin: iso(user.lastLogin),
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
}

export function toAdminUserDetail(
  user: UserRow,
  figures: AdminUserFigures = { dailyMessageCount: 0 },
): AdminUserDetail {
  const { planId: _planId, planName: _planName, ...subscription } = subscriptionOf(user);
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    profileImage: user.profileImage,
    isActive: user.isActive,
    role: user.role,
    createdAt: user.createdAt.toISOString(),
    lastLogin: iso(user.lastLogin),
    dailyMessageCount: figures.dailyMessageCount,
    // Billing adds the total spent.
    credits: user.credits,
    totalSpent: 0,
    googleId: user.googleId,
    subscription,
  };
}
