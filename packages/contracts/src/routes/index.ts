import { adminUsersRoutes } from "./admin-users";
import { aiTrainingRoutes } from "./ai-training";
import { auditRoutes } from "./audit";
import { adminSessionRoutes, authRoutes, userAccountRoutes } from "./auth";
import { adminBillingRoutes, billingRoutes } from "./billing";
import { chatRoutes } from "./chat";
import { chatLogsRoutes } from "./chat-logs";
import { dashboardsRoutes } from "./dashboards";
import type { RouteDefinition } from "./define";
import { healthRoutes } from "./health";
import { jobsRoutes } from "./jobs";
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
export * from "./auth-addresses";
export * from "./define";
export * from "./files";
export { voiceSocketAddress } from "./voice";

/**
 * THE route table: every endpoint migrated to definitions, by module. A new endpoint is one
 * definition here and one handler in its server module (decision 0086).
 */
export const routes = {
  adminUsers: adminUsersRoutes,
  aiTraining: aiTrainingRoutes,
  audit: auditRoutes,
  billing: billingRoutes,
  adminBilling: adminBillingRoutes,
  chatLogs: chatLogsRoutes,
  dashboards: dashboardsRoutes,
  jobs: jobsRoutes,
  chat: chatRoutes,
  health: healthRoutes,
  mail: mailRoutes,
  memory: memoryRoutes,
  privacy: privacyRoutes,
  account: userAccountRoutes,
  adminSession: adminSessionRoutes,
  auth: authRoutes,
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
