import type {
  Admin,
  AdminUserDetail,
  AdminUserListItem,
  MoneyMetric,
  User,
} from "@twinline/contracts";
import type { UserRow } from "../../db/schema/index.ts";
import { NO_SUBSCRIPTION, type SubscriptionView } from "./subscription-state.ts";

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
    hasPassword: user.passwordHash !== null,
    profileImage: user.profileImage,
    credits: user.credits,
    subscription: {
      status: subscription.status,
      planId: subscription.planId,
      planName: subscription.planName,
      endDate: subscription.currentPeriodEnd,
    },
    createdAt: user.createdAt.toISOString(),
    dateOfBirth: user.dateOfBirth,
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
    dateOfBirth: user.dateOfBirth,
    subscription,
  };
}
