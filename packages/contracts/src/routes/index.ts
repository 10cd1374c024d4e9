import { chatRoutes } from "./chat";
import type { RouteDefinition } from "./define";
import { fanDashboardRoutes } from "./fan-dashboard";
import { healthRoutes } from "./health";
import { mailRoutes } from "./mail";
import { memoryRoutes } from "./memory";
import { privacyRoutes } from "./privacy";
import { promotionRoutes } from "./promotions";
import { pushRoutes } from "./push";
import { securityRoutes } from "./security";
import { settingsRoutes, sitePagesRoutes } from "./settings";
import { trialRoutes } from "./trial";
import { voiceRoutes } from "./voice";

export * from "./addresses";
export * from "./define";
export * from "./files";
export { voiceSocketAddress } from "./voice";

/**
 * THE route table: every endpoint migrated to definitions, by module. A new endpoint is one
 * definition here and one handler in its server module (decision 0086).
 */
export const routes = {
  chat: chatRoutes,
  fanDashboard: fanDashboardRoutes,
  health: healthRoutes,
  mail: mailRoutes,
  memory: memoryRoutes,
  privacy: privacyRoutes,
  promotions: promotionRoutes,
  push: pushRoutes,
  security: securityRoutes,
  settings: settingsRoutes,
  sitePages: sitePagesRoutes,
  trial: trialRoutes,
  voice: voiceRoutes,
} as const;

/** Every definition of the table, flat. */
export function allRoutes(): RouteDefinition[] {
  return Object.values(routes).flatMap((group) => Object.values(group) as RouteDefinition[]);
}
