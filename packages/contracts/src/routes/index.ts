import { adminUsersRoutes } from "./admin-users";
import { aiTrainingRoutes } from "./ai-training";
import { auditRoutes } from "./audit";
import { chatLogsRoutes } from "./chat-logs";
import { dashboardsRoutes } from "./dashboards";
import type { RouteDefinition } from "./define";
import { jobsRoutes } from "./jobs";
import { promotionRoutes } from "./promotions";
import { pushRoutes } from "./push";
import { securityRoutes } from "./security";
import { settingsRoutes, sitePagesRoutes } from "./settings";
import { trialRoutes } from "./trial";

export * from "./addresses";
export { voiceSampleAudioAddress } from "./ai-training";
export { chatLogsExportAddress, crisisReferralsExportAddress } from "./chat-logs";
export * from "./define";

/**
 * THE route table: every endpoint migrated to definitions, by module. A new endpoint is one
 * definition here and one handler in its server module (decision 0086).
 */
export const routes = {
  adminUsers: adminUsersRoutes,
  aiTraining: aiTrainingRoutes,
  audit: auditRoutes,
  chatLogs: chatLogsRoutes,
  dashboards: dashboardsRoutes,
  jobs: jobsRoutes,
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
