import type { Admin, AdminUserDetail, AdminUserListItem, User } from "@twinline/contracts";
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

export function toAdminUserDetail(user: UserRow): AdminUserDetail {
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
    // The chat issue adds the daily count, billing the total spent.
    dailyMessageCount: 0,
    credits: user.credits,
    totalSpent: 0,
    googleId: user.googleId,
    subscription,
  };
}
