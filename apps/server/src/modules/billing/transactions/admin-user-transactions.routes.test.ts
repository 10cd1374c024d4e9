import {
  adminCreditTransactionsResponseSchema,
  adminSubscriptionTransactionsResponseSchema,
} from "@twinline/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";

describe("a user's transactions on the admin's user details: paged on the server", () => {
  let t: TestApp;
  let admin: string;
  let userId: string;
  const COUNT = 130;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await adminSession(t)).token;
    userId = (await signUp(t)).user.id;
    // Purchase g is g hours old: 1 is the newest, 130 the oldest; every 10th failed.
    await t.app.database.db.execute(sql`insert into payments (kind, user_id, status, amount_minor,
        currency, credits, item_name, provider, stripe_payment_id, source_key, transaction_date)
      select 'credits', ${userId}, case when g % 10 = 0 then 'failed' else 'success' end::payment_status,
        1000 + g, 'usd', g, 'Pack', 'sandbox', 'pi_user_' || g, 'user-tx:' || g,
        now() - g * interval '1 hour'
      from generate_series(1, ${COUNT}) g`);
    await t.app.database.db.execute(sql`insert into payments (kind, user_id, status, amount_minor,
        currency, item_name, provider, invoice_id, source_key, transaction_date)
      select 'subscription', ${userId}, 'success', 999, 'usd', 'Plan ' || (g % 3), 'sandbox',
        'in_user_' || g, 'user-sub:' || g, now() - g * interval '1 day'
      from generate_series(1, 105) g`);
  });
  afterAll(() => t?.close());

  const credits = async (query: Record<string, string>) => {
    const response = await call(t, "GET", `/api/admin/users/${userId}/transactions`, {
      token: admin,
      query,
    });
    expect(response.statusCode, response.body).toBe(200);
    return adminCreditTransactionsResponseSchema.parse(response.json());
  };

  it("reaches every row, the 101st and the last included", async () => {
    const last = await credits({ page: "13", limit: "10" });
    expect(last.pagination).toEqual({ total: COUNT, page: 13, limit: 10, pages: 13 });
    expect(last.data.map((row) => row.stripePaymentId)).toEqual(
      Array.from({ length: 10 }, (_, i) => `pi_user_${121 + i}`),
    );
    const eleventh = await credits({ page: "11", limit: "10" });
    expect(eleventh.data[0]?.stripePaymentId).toBe("pi_user_101");
  });

  it("sorts and searches on the server", async () => {
    const cheapest = await credits({ sortBy: "amount", sortOrder: "1", page: "1", limit: "3" });
    expect(cheapest.data.map((row) => row.amount)).toEqual([10.01, 10.02, 10.03]);
    const failed = await credits({ search: "FAILED", limit: "50" });
    expect(failed.pagination.total).toBe(13);
    expect(failed.data.every((row) => row.status === "failed")).toBe(true);
    const one = await credits({ search: "pi_user_117" });
    expect(one.data.map((row) => row.stripePaymentId)).toEqual(["pi_user_117"]);
    const bad = await call(t, "GET", `/api/admin/users/${userId}/transactions`, {
      token: admin,
      query: { sortBy: "nope" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("sortBy");
  });

  it("subscription payments the same: by plan name, every page", async () => {
    const response = await call(t, "GET", `/api/admin/users/${userId}/subscription-transactions`, {
      token: admin,
      query: { search: "plan 1", page: "2", limit: "10" },
    });
    const page = adminSubscriptionTransactionsResponseSchema.parse(response.json());
    expect(page.pagination.total).toBe(35);
    expect(page.data.every((row) => row.planName === "Plan 1")).toBe(true);
    const last = adminSubscriptionTransactionsResponseSchema.parse(
      (
        await call(t, "GET", `/api/admin/users/${userId}/subscription-transactions`, {
          token: admin,
          query: { page: "11", limit: "10" },
        })
      ).json(),
    );
    expect(last.data.map((row) => row.invoiceId)).toEqual([
      "in_user_101",
      "in_user_102",
      "in_user_103",
      "in_user_104",
      "in_user_105",
    ]);
  });
});
