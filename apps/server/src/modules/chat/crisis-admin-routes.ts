import { CRISIS_REFERRALS_CSV_HEADER, csvRow, routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/client.ts";
import { registerRoute } from "../../plugins/routes.ts";
import { referralsByDay } from "./crisis-repository.ts";
import { utcDay } from "./repository.ts";

/**
 * The crisis referrals per UTC day (issue 25, item 3): a count and nothing about anyone, the
 * figure a yearly report to a state office needs; shown in analytics and exported as CSV.
 * Guarded by their access (admin), registered by the chat module.
 */
export const crisisReferralsRoutes: FastifyPluginAsync<{
  db: Database;
  now?: () => Date;
}> = async (app, { db, now = () => new Date() }) => {
  registerRoute(app, routes.chatLogs.crisisReferrals, async (request) => {
    const days = await referralsByDay(db, utcDay(now()), request.query.days);
    const total = days.reduce((sum, day) => sum + day.referrals, 0);
    return { success: true as const, data: { total, days } };
  });

  registerRoute(app, routes.chatLogs.crisisReferralsExport, async (request, reply) => {
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
  });
};
