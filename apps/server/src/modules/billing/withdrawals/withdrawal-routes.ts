import {
  WITHDRAWAL_MESSAGES,
  withdrawalParamsSchema,
  withdrawalQuoteResponseSchema,
  withdrawRequestSchema,
  withdrawResponseSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../../plugins/auth.ts";
import { bearerSecurity, errorResponses } from "../../../plugins/openapi.ts";
import type { WithdrawalsService } from "./withdrawals-service.ts";

const errors = errorResponses(400, 401, 403, 404, 409, 502);
const tags = ["payments"];
const security = bearerSecurity;

/**
 * Withdrawal from a purchase, from the transactions page (issue 26, item 5): the fan's session
 * suffices, no password asked again (docs/decisions/0065).
 */
export const withdrawalRoutes: FastifyPluginAsyncZod<{ withdrawals: WithdrawalsService }> = async (
  app,
  { withdrawals },
) => {
  app.addHook("onRequest", app.requireUser);

  app.get(
    "/api/payments/:id/withdrawal",
    {
      schema: {
        tags,
        security,
        summary:
          "Step 1 of a withdrawal: what withdrawing from this purchase (within 14 days) would give back and take back",
        params: withdrawalParamsSchema,
        response: { 200: withdrawalQuoteResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await withdrawals.quote(currentUser(request), request.params.id),
    }),
  );

  app.post(
    "/api/payments/:id/withdrawal",
    {
      schema: {
        tags,
        security,
        summary:
          "Step 2: withdraws from the purchase once (refund, credits taken back, a plan ended now); " +
          "confirmed by e-mail; a repeat answers the same withdrawal",
        params: withdrawalParamsSchema,
        body: withdrawRequestSchema,
        response: { 200: withdrawResponseSchema, ...errors },
      },
    },
    async (request) => {
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
    },
  );
};
