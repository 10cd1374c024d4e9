import { isLowBalance, MONEY_TOOLS_MESSAGES } from "@twinline/contracts";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import type { CreditKind } from "../../db/schema/index.ts";
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
 * THE way credits move (DESIGN.md, data rules): one statement (the database function
 * apply_credit_movement, migration 0024) locks the user's row, appends the movement to the ledger
 * and updates the cached `users.credits`, so inside a transaction it is one round trip too. A
 * source key already in the ledger changes nothing (`applied: false`); a movement that would
 * leave the balance below zero throws InsufficientCreditsError and writes nothing. Movements of
 * one user are serialised by the row lock, so parallel calls cannot overdraw.
 */
export async function applyCreditMovement(
  db: Database,
  movement: CreditMovement,
): Promise<CreditMovementResult> {
  const result = (await db.execute(
    sql`select movement_status as status, movement_balance as balance from ${creditMovementCall(movement)}`,
  )) as unknown as { rows: CreditMovementRow[] };
  const outcome = creditMovementResult(movement, result.rows[0]);
  await noteLowBalanceAfter(db, movement, outcome);
  return outcome;
}

/**
 * A debit that took the balance below one call minute queues the low-balance notice (at most one
 * a week: fan-mail/low-balance.ts). `creditsPerMinute`, when the caller knows it (a call's
 * minute), spares the settings read for every debit that crosses nothing.
 */
export async function noteLowBalanceAfter(
  db: Database,
  movement: CreditMovement,
  outcome: CreditMovementResult,
  creditsPerMinute?: number,
): Promise<void> {
  if (!outcome.applied || movement.amount >= 0) return;
  const before = outcome.balance - movement.amount;
  if (
    creditsPerMinute !== undefined &&
    (!isLowBalance(outcome.balance, creditsPerMinute) || isLowBalance(before, creditsPerMinute))
  ) {
    return;
  }
  await noteLowBalance(db, {
    userId: movement.userId,
    before,
    after: outcome.balance,
    sourceKey: movement.sourceKey,
  });
}

/** What apply_credit_movement answers. */
export interface CreditMovementRow {
  status: string | null;
  balance: number | string | null;
}

/**
 * applyCreditMovement's call of apply_credit_movement, for a statement that moves credits with
 * more (a call's minute and its counters: voice/repository.ts); its answer goes through
 * creditMovementResult. `userId`: the user as a column of that statement (so the call depends on
 * its row), instead of movement.userId.
 */
export function creditMovementCall(movement: CreditMovement, userId?: SQL): SQL {
  if (!Number.isInteger(movement.amount)) {
    throw new TypeError(`Credit amounts are whole numbers (got ${movement.amount})`);
  }
  return sql`apply_credit_movement(${userId ?? sql`${movement.userId}::uuid`}, ${movement.kind}::credit_kind,
    ${movement.amount}::integer, ${movement.sourceKey}::text,
    ${JSON.stringify(movement.metadata ?? {})}::jsonb)`;
}

/** The result of a movement from apply_credit_movement's answer; throws as applyCreditMovement does. */
export function creditMovementResult(
  movement: CreditMovement,
  row: CreditMovementRow | undefined,
): CreditMovementResult {
  const balance = Number(row?.balance ?? 0);
  switch (row?.status) {
    case "applied":
      return { applied: true, balance };
    case "already":
      return { applied: false, balance };
    case "insufficient":
      throw new InsufficientCreditsError(balance, -movement.amount);
    case "full":
      throw new BalanceFullError();
    default:
      throw new HttpError(404, "User not found");
  }
}
