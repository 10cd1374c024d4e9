import { randomUUID } from "node:crypto";
import { MONEY_TOOLS_MESSAGES } from "@twinline/contracts";
import type { Database } from "../../db/client.ts";
import { HttpError } from "../../plugins/errors.ts";
import { applyCreditMovement, InsufficientCreditsError } from "./ledger.ts";

/**
 * The operator grants or takes back credits (ledger kind `admin_adjustment`, with the reason and
 * the admin in its metadata, so the user's credit history shows it). Never below zero: a
 * take-back larger than the balance is a 400 that says so and writes nothing. A request id
 * makes a double submit apply once.
 */
export async function adjustCredits(
  db: Database,
  input: { adminId: string; userId: string; delta: number; reason: string; requestId?: string },
) {
  try {
    const result = await applyCreditMovement(db, {
      userId: input.userId,
      kind: "admin_adjustment",
      amount: input.delta,
      sourceKey: `admin-adjustment:${input.requestId ?? randomUUID()}`,
      metadata: { reason: input.reason, adminId: input.adminId },
    });
    return { balance: result.balance, delta: input.delta, applied: result.applied };
  } catch (error) {
    if (error instanceof InsufficientCreditsError) {
      throw new HttpError(400, MONEY_TOOLS_MESSAGES.belowZero, {
        field: "delta",
        balance: error.balance,
        requested: error.requested,
      });
    }
    throw error;
  }
}
