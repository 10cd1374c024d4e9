import type { AdminUsersQuery } from "@twinline/contracts";
import type { UserRow } from "../../db/schema/index.ts";
import { HttpError } from "../../plugins/errors.ts";
import { type AdminUserFigures, toAdminListItem, toAdminUserDetail } from "../users/mapper.ts";
import type { UsersRepository } from "../users/repository.ts";
import type { SubscriptionView } from "../users/subscription-state.ts";

export const ADMIN_MESSAGES = {
  userNotFound: "User not found",
  cannotDeactivateSelf: "You cannot deactivate your own account",
  activated: "User activated successfully",
  deactivated: "User deactivated successfully",
  dateOfBirthCorrected: "Date of birth corrected",
  passwordChanged: "Password changed successfully",
  loggedOut: "Logged out",
} as const;

export type UserStatusAction = "activate" | "deactivate" | "suspend";

export interface AdminServiceOptions {
  users: UsersRepository;
  /** A user's figures kept by other modules (today's chat messages); zeros when absent. */
  figuresOf?: (userId: string) => Promise<AdminUserFigures>;
  /** The subscriptions of a page of users (users/subscription-state.ts subscriptionsOf). */
  subscriptionsOf?: (userIds: string[]) => Promise<Map<string, SubscriptionView>>;
}

export function createAdminService({ users, figuresOf, subscriptionsOf }: AdminServiceOptions) {
  const detailOf = async (user: UserRow) =>
    toAdminUserDetail(user, figuresOf ? await figuresOf(user.id) : undefined);
  return {
    /** One page of the users (accounts with the user role) and how many match in all. */
    async listUsers(query: AdminUsersQuery) {
      const { rows, total } = await users.list(query);
      const subscriptions = subscriptionsOf
        ? await subscriptionsOf(rows.map((row) => row.id))
        : new Map<string, SubscriptionView>();
      return { users: rows.map((row) => toAdminListItem(row, subscriptions.get(row.id))), total };
    },

    async getUser(userId: string) {
      const user = await users.findById(userId);
      if (!user) throw new HttpError(404, ADMIN_MESSAGES.userNotFound);
      return detailOf(user);
    },

    /**
     * The admin corrects a user's date of birth (the fan cannot: decision 0054). Answers the
     * date before, for the audit log, and the user as now.
     */
    async correctDateOfBirth(userId: string, dateOfBirth: string) {
      const before = await users.findById(userId);
      if (!before) throw new HttpError(404, ADMIN_MESSAGES.userNotFound);
      const updated = await users.update(userId, { dateOfBirth });
      if (!updated) throw new HttpError(404, ADMIN_MESSAGES.userNotFound);
      return { before: before.dateOfBirth, user: await detailOf(updated) };
    },

    /** Suspend is a deactivation too. Deactivating ends every token of the account at once. */
    async setStatus(admin: UserRow, userId: string, action: UserStatusAction) {
      const activate = action === "activate";
      if (!activate && admin.id === userId) {
        throw new HttpError(400, ADMIN_MESSAGES.cannotDeactivateSelf);
      }
      const updated = await users.update(
        userId,
        activate ? { isActive: true } : { isActive: false, bumpTokens: true },
      );
      if (!updated) throw new HttpError(404, ADMIN_MESSAGES.userNotFound);
      return detailOf(updated);
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
