import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { utcDay } from "../../lib/utc-day.ts";
import type { AuthService } from "../auth/service.ts";
import { totalSpentOf } from "../billing/transactions/total-spent.ts";
import { createChatRepository } from "../chat/repository.ts";
import type { UsersRepository } from "../users/repository.ts";
import { subscriptionOf, subscriptionsOf } from "../users/subscription-state.ts";
import { adminRoutes } from "./routes.ts";
import { type AdminService, createAdminService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The admin's user management and figures. */
    admin: AdminService;
  }
}

/** The other modules' services the admin's API uses, passed by app.ts (docs/decisions/0097). */
export interface AdminModuleDeps {
  auth: AuthService;
  users: UsersRepository;
}

/**
 * The admin's own API: login, its account, the users. Its routes but the login are registered
 * through adminGuarded (plugins/admin-scope.ts). Needs the accounts module (requireAdmin)
 * registered before it.
 */
export const adminModule = fp<AdminModuleDeps>(
  async (app: FastifyInstance, { auth, users }) => {
    const { db } = app.database;
    const chat = createChatRepository(db);
    const admin = createAdminService({
      users,
      figuresOf: async (userId) => ({
        dailyMessageCount: (await chat.usage(userId, utcDay(new Date()))).today,
        totalSpent: await totalSpentOf(db, userId),
        subscription: await subscriptionOf(db, userId),
      }),
      subscriptionsOf: (userIds) => subscriptionsOf(db, userIds),
    });
    app.decorate("admin", admin);
    await app.register(adminRoutes, { auth, admin });
  },
  { name: "admin", dependencies: ["accounts", "rate-limit"] },
);
