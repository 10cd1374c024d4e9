import { adminSessionRoutes, authRoutes, userAccountRoutes } from "./auth";
import type { RouteDefinition } from "./define";
import { promotionRoutes } from "./promotions";
import { pushRoutes } from "./push";
import { securityRoutes } from "./security";
import { settingsRoutes, sitePagesRoutes } from "./settings";
import { trialRoutes } from "./trial";

export * from "./addresses";
export * from "./auth-addresses";
export * from "./define";

/**
 * THE route table: every endpoint migrated to definitions, by module. A new endpoint is one
 * definition here and one handler in its server module (decision 0086).
 */
export const routes = {
  account: userAccountRoutes,
  adminSession: adminSessionRoutes,
  auth: authRoutes,
  promotions: promotionRoutes,
  push: pushRoutes,
  security: securityRoutes,
  settings: settingsRoutes,
  sitePages: sitePagesRoutes,
  trial: trialRoutes,
} as const;

/** Every definition of the table, flat. */
export function allRoutes(): RouteDefinition[] {
  return Object.values(routes).flatMap((group) => Object.values(group) as RouteDefinition[]);
}
