import { MONEY_TOOLS_MESSAGES } from "@twinline/contracts";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { type CreditKind, creditLedger, users } from "../../db/schema/index.ts";
import { HttpError } from "../../plugins/errors.ts";
import { noteLowBalance } from "../fan-mail/low-balance.ts";

export type { CreditKind };

export interface CreditMovement {
  userId: string;
  kind: CreditKind;
  /** Signed: a grant or purchase adds, a call minute takes away. */
  amount: number;
  /**
   * What caused the movement, unique across the ledger (`signup:<userId>`, `stripe:<eventId>`,
   * `call:<callId>:<minute>`...). A second movement with the same key changes nothing.
   */
  sourceKey: string;
  metadata?: Record<string, unknown>;
}

export interface CreditMovementResult {
  /** False when the source key was already in the ledger: nothing changed. */
  applied: boolean;
  /** The user's balance after this call (unchanged when not applied). */
  balance: number;
}

/** The largest balance a user can hold (`users.credits` and the ledger are 32-bit integers). */
export const MAX_CREDIT_BALANCE = 2_147_483_647;

/** Whether `credits` more fit in a balance of `balance` (checked before a charge, issue 24). */
export const balanceHolds = (balance: number, credits: number): boolean =>
  balance + credits <= MAX_CREDIT_BALANCE;

/** The movement would take the balance above what it can hold; nothing was written. */
export class BalanceFullError extends HttpError {
  constructor() {
    super(409, MONEY_TOOLS_MESSAGES.balanceFull, { field: "credits" });
    this.name = "BalanceFullError";
  }
}

/** The movement would take the balance below zero; nothing was written. */
export class InsufficientCreditsError extends HttpError {
  constructor(
    readonly balance: number,
    readonly requested: number,
  ) {
    super(402, "Insufficient credits", { balance, requested });
    this.name = "InsufficientCreditsError";
  }
}

/**
 * THE way credits move (DESIGN.md, data rules): in one transaction (a savepoint when `db` is
 * already a transaction) it locks the user's row, appends the movement to the ledger and updates
 * the cached `users.credits`. A source key already in the ledger changes nothing
 * (`applied: false`); a movement that would leave the balance below zero throws
 * InsufficientCreditsError and writes nothing. Movements of one user are serialised by the row
 * lock, so parallel calls cannot overdraw.
 */
export async function applyCreditMovement(
  db: Database,
  movement: CreditMovement,
): Promise<CreditMovementResult> {
  if (!Number.isInteger(movement.amount)) {
    throw new TypeError(`Credit amounts are whole numbers (got ${movement.amount})`);
  }
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, movement.userId))
      .for("update");
    if (!user) throw new HttpError(404, "User not found");

    const [already] = await tx
      .select({ id: creditLedger.id })
      .from(creditLedger)
      .where(eq(creditLedger.sourceKey, movement.sourceKey));
    if (already) return { applied: false, balance: user.credits };

    const balanceAfter = user.credits + movement.amount;
    if (balanceAfter < 0) throw new InsufficientCreditsError(user.credits, -movement.amount);
    if (!balanceHolds(user.credits, movement.amount)) throw new BalanceFullError();

    // ON CONFLICT covers a same-key movement of another user committed meanwhile.
    const inserted = await tx
      .insert(creditLedger)
      .values({
        userId: movement.userId,
        kind: movement.kind,
        amount: movement.amount,
        balanceAfter,
        sourceKey: movement.sourceKey,
        metadata: movement.metadata ?? {},
      })
      .onConflictDoNothing({ target: creditLedger.sourceKey })
      .returning({ id: creditLedger.id });
    if (inserted.length === 0) return { applied: false, balance: user.credits };

    await tx
      .update(users)
      .set({ credits: balanceAfter, updatedAt: sql`now()` })
      .where(eq(users.id, movement.userId));
    const { userId, sourceKey } = movement;
    await noteLowBalance(tx, { userId, before: user.credits, after: balanceAfter, sourceKey });
    return { applied: true, balance: balanceAfter };
  });
}
