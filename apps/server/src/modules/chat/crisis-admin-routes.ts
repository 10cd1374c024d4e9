import {
  CRISIS_REFERRALS_CSV_HEADER,
  crisisReferralsQuerySchema,
  crisisReferralsResponseSchema,
  csvRow,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Database } from "../../db/client.ts";
import { ADMIN_PREFIX } from "../../plugins/admin-scope.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import { referralsByDay } from "./crisis-repository.ts";
import { utcDay } from "./repository.ts";

const errors = errorResponses(400, 401, 403);
const tags = ["admin"];
const security = bearerSecurity;

/**
 * The crisis referrals per UTC day (issue 25, item 3): a count and nothing about anyone, the
 * figure a yearly report to a state office needs; shown in analytics and exported as CSV.
 * Registered behind the admin guard by the chat module.
 */
export const crisisReferralsRoutes: FastifyPluginAsyncZod<{
  db: Database;
  now?: () => Date;
}> = async (app, { db, now = () => new Date() }) => {
  app.get(
    `${ADMIN_PREFIX}/analytics/crisis-referrals`,
    {
      schema: {
        tags,
        security,
        summary: "Crisis referrals per UTC day over the last `days` days (no personal data)",
        querystring: crisisReferralsQuerySchema,
        response: { 200: crisisReferralsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const days = await referralsByDay(db, utcDay(now()), request.query.days);
      const total = days.reduce((sum, day) => sum + day.referrals, 0);
      return { success: true as const, data: { total, days } };
    },
  );

  app.get(
    `${ADMIN_PREFIX}/analytics/crisis-referrals/export`,
    {
      schema: {
        tags,
        security,
        summary: "Crisis referrals per UTC day over the last `days` days, as CSV",
        querystring: crisisReferralsQuerySchema,
        response: { ...errors },
      },
    },
    async (request, reply) => {
      const today = utcDay(now());
      const days = await referralsByDay(db, today, request.query.days);
      const body = [
        csvRow(CRISIS_REFERRALS_CSV_HEADER),
        ...days.map((day) => csvRow([day.date, day.referrals])),
      ].join("");
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="crisis-referrals-${today}.csv"`)
        .header("cache-control", "no-store")
        .send(body as never);
    },
  );
};
