import { eq } from "drizzle-orm";
import { users } from "../src/db/schema/index.ts";
import { applyCreditMovement } from "../src/modules/credits/ledger.ts";
import { signUp } from "./accounts.ts";
import type { TestApp } from "./create-test-app.ts";

/** The user's cached balance, as the row holds it (NaN when there is no such user). */
export async function balanceOf(t: TestApp, userId: string): Promise<number> {
  const [row] = await t.app.database.db
    .select({ credits: users.credits })
    .from(users)
    .where(eq(users.id, userId));
  return row?.credits ?? Number.NaN;
}

/** A new user with exactly `credits` credits: the sign-up grant evened out through the ledger. */
export async function signUpWithCredits(t: TestApp, credits: number) {
  const session = await signUp(t);
  const amount = credits - (await balanceOf(t, session.user.id));
  if (amount !== 0) {
    await applyCreditMovement(t.app.database.db, {
      userId: session.user.id,
      kind: "admin_adjustment",
      amount,
      sourceKey: `test:${session.user.id}`,
    });
  }
  return session;
}
