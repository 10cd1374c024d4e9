import { routes, WITHDRAWAL_MESSAGES } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { currentUser } from "../../../plugins/auth.ts";
import { registerRoute } from "../../../plugins/routes.ts";
import type { WithdrawalsService } from "./withdrawals-service.ts";

/**
 * Withdrawal from a purchase, from the transactions page (issue 26, item 5): the fan's session
 * suffices, no password asked again (docs/decisions/0065).
 */
export const withdrawalRoutes: FastifyPluginAsync<{ withdrawals: WithdrawalsService }> = async (
  app,
  { withdrawals },
) => {
  registerRoute(app, routes.billing.withdrawalQuote, async (request) => ({
    success: true as const,
    data: await withdrawals.quote(currentUser(request), request.params.id),
  }));

  registerRoute(app, routes.billing.withdraw, async (request) => {
    const user = currentUser(request);
    const done = await withdrawals.withdraw(user, request.params.id, {
      // The fan, not an admin, made this money change: the audit log names them.
      adminId: null,
      adminEmail: user.email,
      ip: request.ip,
      method: request.method,
      path: request.url.split("?")[0] ?? request.url,
    });
    return {
      success: true as const,
      message: WITHDRAWAL_MESSAGES.withdrawn,
      data: { withdrawal: done.withdrawal, balance: done.balance },
    };
  });
};
