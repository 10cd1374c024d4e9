import {
  CREDIT_TRANSACTIONS_CSV_COLUMNS,
  csvLine,
  SUBSCRIPTION_HISTORY_CSV_COLUMNS,
  SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS,
} from "@twinline/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { subscriptionPlans } from "../../../db/schema/index.ts";
import { EXPORT_BATCH } from "./transactions-repository.ts";

/** A CSV answer as header and rows of cells (every cell quoted, no line breaks inside). */
function parseCsv(body: string) {
  expect(body.startsWith("\uFEFF")).toBe(true);
  const lines = body.slice(1).split("\r\n");
  expect(lines.at(-1)).toBe("");
  const [header, ...rows] = lines.slice(0, -1);
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split('","')
      .map((cell) => cell.replaceAll('""', '"'));
  return { header, rows: rows.map(cells) };
}

describe("Export all: every matching row, streamed as the page export's CSV", () => {
  let t: TestApp;
  let admin: string;
  let mallory: string;
  let other: string;
  // More rows than one batch, so the export reads several.
  const MANY = EXPORT_BATCH * 2 + 37;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await adminSession(t)).token;
    const a = await signUp(t, { name: "Mallory", email: "mallory-export@example.com" });
    const b = await signUp(t, { name: "Other", email: "other-export@example.com" });
    mallory = a.user.id;
    other = b.user.id;
    const db = t.app.database.db;
    // A name a spreadsheet would run as a formula.
    await db.execute(
      sql`update users set name = '=HYPERLINK("http://evil.example")' where id = ${mallory}`,
    );
    // Mallory: MANY credit purchases, every 7th failed, one a day back from March 2026.
    await db.execute(sql`insert into payments (kind, user_id, status, amount_minor, currency, credits,
        item_name, provider, stripe_payment_id, source_key, transaction_date)
      select 'credits', ${mallory}, case when g % 7 = 0 then 'failed' else 'success' end::payment_status,
        100 + g, 'usd', g, 'Pack ' || g, 'sandbox', 'pi_export_' || g, 'export:credits:' || g,
        timestamptz '2026-03-31T12:00:00Z' - g * interval '1 hour'
      from generate_series(1, ${MANY}) g`);
    // Someone else's, which the user filter leaves out.
    await db.execute(sql`insert into payments (kind, user_id, status, amount_minor, currency, credits,
        item_name, provider, stripe_payment_id, source_key, transaction_date)
      select 'credits', ${other}, 'success', 999, 'eur', 5, 'Other', 'sandbox', 'pi_other_' || g,
        'export:other:' || g, timestamptz '2026-03-20T12:00:00Z'
      from generate_series(1, 20) g`);
    const [plan] = await db
      .insert(subscriptionPlans)
      .values({ name: "Export Plan", priceMinor: 1999 })
      .returning();
    await db.execute(sql`insert into payments (kind, user_id, status, amount_minor, currency,
        item_name, plan_id, provider, invoice_id, source_key, transaction_date)
      select 'subscription', ${mallory}, 'success', 1999, 'inr', 'Export Plan', ${plan?.id},
        'sandbox', 'in_export_' || g, 'export:subscription:' || g,
        timestamptz '2026-03-01T00:00:00Z' + g * interval '1 minute'
      from generate_series(1, ${EXPORT_BATCH + 1}) g`);
    await db.execute(sql`insert into subscription_events (user_id, plan_id, plan_name, event_type,
        status, amount_minor, currency, auto_renew, provider_subscription_id, source_key, timestamp)
      select ${mallory}, ${plan?.id}, 'Export Plan',
        case when g % 2 = 0 then 'renewed' else 'payment_failed' end::subscription_event_type,
        'active', 1999, 'usd', true, 'sub_export', 'export:event:' || g,
        timestamptz '2026-03-01T00:00:00Z' + g * interval '1 minute'
      from generate_series(1, ${EXPORT_BATCH + 3}) g`);
  });
  afterAll(() => t?.close());

  const exportOf = (path: string, query: Record<string, string> = {}) =>
    call(t, "GET", path, { token: admin, query });

  it("credit purchases: every row of the filter, in the list's order, formula-safe", async () => {
    const response = await exportOf("/api/admin/credit-transactions/export", {
      userId: mallory,
      status: "success",
      sortBy: "amount",
      sortOrder: "1",
      page: "3",
      limit: "10",
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="credit-transactions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const { header, rows } = parseCsv(response.body);
    expect(header).toBe(csvLine(CREDIT_TRANSACTIONS_CSV_COLUMNS));
    const expected = Array.from({ length: MANY }, (_, i) => i + 1).filter((g) => g % 7 !== 0);
    // Every matching row once, page and limit ignored; ascending amount.
    expect(rows.map((row) => row[8])).toEqual(expected.map((g) => `pi_export_${g}`));
    expect(rows[0]).toEqual([
      "2026-03-31T11:00:00.000Z",
      "mallory-export@example.com",
      `'=HYPERLINK("http://evil.example")`,
      "Pack 1",
      "1",
      "1.01",
      "USD",
      "success",
      "pi_export_1",
    ]);
  });

  it("applies the date range and the status", async () => {
    const response = await exportOf("/api/admin/credit-transactions/export", {
      userId: "mallory-export@example.com",
      status: "failed",
      startDate: "2026-03-30",
      endDate: "2026-03-30",
    });
    const { rows } = parseCsv(response.body);
    // Failed ones (every 7th hour back) on March 30th (hours 12..35 back from the 31st 12:00).
    const expected = Array.from({ length: 24 }, (_, i) => i + 13).filter((g) => g % 7 === 0);
    expect(rows.map((row) => row[8]).sort()).toEqual(expected.map((g) => `pi_export_${g}`).sort());
    expect(rows.every((row) => row[7] === "failed")).toBe(true);
  });

  it("subscription payments and history: every row, the page export's columns", async () => {
    const payments = parseCsv(
      (await exportOf("/api/admin/subscription-transactions/export", { userId: mallory })).body,
    );
    expect(payments.header).toBe(csvLine(SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS));
    expect(payments.rows).toHaveLength(EXPORT_BATCH + 1);
    expect(new Set(payments.rows.map((row) => row[7])).size).toBe(EXPORT_BATCH + 1);
    expect(payments.rows[0]?.slice(3, 7)).toEqual(["Export Plan", "19.99", "INR", "success"]);

    const history = parseCsv(
      (
        await exportOf("/api/admin/subscription-history/export", {
          eventType: "payment_failed",
        })
      ).body,
    );
    expect(history.header).toBe(csvLine(SUBSCRIPTION_HISTORY_CSV_COLUMNS));
    expect(history.rows).toHaveLength(Math.ceil((EXPORT_BATCH + 3) / 2));
    expect(history.rows.every((row) => row[4] === "payment_failed")).toBe(true);
    expect(history.rows[0]?.slice(8)).toEqual(["19.99", "USD", "Yes", "sub_export"]);
  });

  it("is the admin's only, and bad filters are a 400 naming the field", async () => {
    const user = await signUp(t);
    const denied = await call(t, "GET", "/api/admin/credit-transactions/export", {
      token: user.token,
    });
    expect([401, 403]).toContain(denied.statusCode);
    const bad = await exportOf("/api/admin/subscription-history/export", { eventType: "nope" });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("eventType");
  });
});
