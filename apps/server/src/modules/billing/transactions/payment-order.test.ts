import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { payments } from "../../../db/schema/index.ts";

/**
 * Payments made in the same second list in the order they were made (issue 24, item 6): a
 * provider's times are whole seconds, so the tie is broken by the order of writing, never by
 * the random id.
 */
describe("payments of the same second", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("list newest first, and oldest first when asked, in the order they were written", async () => {
    const admin = await adminSession(t);
    const fan = await signUp(t);
    const second = new Date(Math.floor(Date.now() / 1000) * 1000);
    const names = Array.from({ length: 12 }, (_, index) => `Pack ${index + 1}`);
    for (const name of names) {
      await t.app.database.db.insert(payments).values({
        kind: "credits",
        userId: fan.user.id,
        status: "success",
        amountMinor: 500,
        currency: "usd",
        credits: 100,
        itemName: name,
        provider: "sandbox",
        sourceKey: `order:${fan.user.id}:${name}`,
        transactionDate: second,
        metadata: { packageName: name },
      });
    }
    const newestFirst = [...names].reverse();

    const mine = await call(t, "GET", "/api/payments/history", {
      token: fan.token,
      query: { limit: "20" },
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(
      mine
        .json()
        .data.map((row: { metadata: { packageName: string } }) => row.metadata.packageName),
    ).toEqual(newestFirst);

    const listed = async (sortOrder: number) =>
      (
        await call(t, "GET", "/api/admin/credit-transactions", {
          token: admin.token,
          query: {
            userId: fan.user.id,
            limit: "20",
            sortBy: "transactionDate",
            sortOrder: String(sortOrder),
          },
        })
      )
        .json()
        .data.map((row: { metadata: { packageName: string } }) => row.metadata.packageName);
    expect(await listed(-1)).toEqual(newestFirst);
    expect(await listed(1)).toEqual(names);
    const rows = await t.app.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, fan.user.id));
    expect(rows).toHaveLength(12);
  });
});
