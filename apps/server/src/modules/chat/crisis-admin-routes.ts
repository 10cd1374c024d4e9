import { CRISIS_REFERRALS_CSV_HEADER, routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/client.ts";
import { sendCsvDownload } from "../../lib/csv-download.ts";
import { utcDay } from "../../lib/utc-day.ts";
import { registerRoute } from "../../plugins/routes.ts";
import { referralsByDay } from "./crisis-repository.ts";

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
    const day = now();
    const days = await referralsByDay(db, utcDay(day), request.query.days);
    return sendCsvDownload(request, reply, {
      name: "crisis-referrals",
      day,
      header: CRISIS_REFERRALS_CSV_HEADER,
      toRow: (row) => [row.date, row.referrals],
      batches: [days],
    });
  });
};
