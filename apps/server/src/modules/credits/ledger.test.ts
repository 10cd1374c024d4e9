import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { creditLedger, users } from "../../db/schema/index.ts";
import { applyCreditMovement, InsufficientCreditsError } from "./ledger.ts";

describe("credit ledger", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const balanceOf = async (userId: string) => {
    const [row] = await t.app.database.db
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, userId));
    return row?.credits;
  };
  const entriesOf = (userId: string) =>
    t.app.database.db.select().from(creditLedger).where(eq(creditLedger.userId, userId));

  it("applies a movement once: a replay with the same source key changes nothing", async () => {
    const { user } = await signUp(t);
    const db = t.app.database.db;
    const movement = {
      userId: user.id,
      kind: "purchase" as const,
      amount: 250,
      sourceKey: `test-purchase:${user.id}`,
      metadata: { packageName: "Starter" },
    };
    expect(await applyCreditMovement(db, movement)).toEqual({ applied: true, balance: 350 });
    expect(await applyCreditMovement(db, movement)).toEqual({ applied: false, balance: 350 });
    expect(await balanceOf(user.id)).toBe(350);
    const entries = await entriesOf(user.id);
    expect(entries).toHaveLength(2);
    expect(entries.find((e) => e.kind === "purchase")).toMatchObject({
      amount: 250,
      balanceAfter: 350,
      metadata: { packageName: "Starter" },
    });
  });

  it("the sign-up grant replayed changes nothing", async () => {
    const { user } = await signUp(t);
    const replay = await applyCreditMovement(t.app.database.db, {
      userId: user.id,
      kind: "grant",
      amount: 100,
      sourceKey: `signup:${user.id}`,
    });
    expect(replay).toEqual({ applied: false, balance: 100 });
    expect(await balanceOf(user.id)).toBe(100);
  });

  it("refuses a movement below zero and writes nothing", async () => {
    const { user } = await signUp(t);
    const db = t.app.database.db;
    await expect(
      applyCreditMovement(db, {
        userId: user.id,
        kind: "call_minute",
        amount: -101,
        sourceKey: `test-call:${user.id}:1`,
      }),
    ).rejects.toBeInstanceOf(InsufficientCreditsError);
    expect(await balanceOf(user.id)).toBe(100);
    expect(await entriesOf(user.id)).toHaveLength(1);

    // Down to exactly zero is fine.
    expect(
      await applyCreditMovement(db, {
        userId: user.id,
        kind: "call_minute",
        amount: -100,
        sourceKey: `test-call:${user.id}:2`,
      }),
    ).toEqual({ applied: true, balance: 0 });
  });

  it("parallel spends cannot overdraw", async () => {
    const { user } = await signUp(t);
    const db = t.app.database.db;
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        applyCreditMovement(db, {
          userId: user.id,
          kind: "call_minute",
          amount: -30,
          sourceKey: `test-parallel:${user.id}:${i}`,
        }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    expect(await balanceOf(user.id)).toBe(10);
  });

  it("rolls back with the caller's transaction", async () => {
    const { user } = await signUp(t);
    await expect(
      t.app.database.db.transaction(async (tx) => {
        await applyCreditMovement(tx, {
          userId: user.id,
          kind: "admin_adjustment",
          amount: 5,
          sourceKey: `test-rollback:${user.id}`,
        });
        throw new Error("caller fails");
      }),
    ).rejects.toThrow("caller fails");
    expect(await balanceOf(user.id)).toBe(100);
    expect(await entriesOf(user.id)).toHaveLength(1);
  });
});
