import { isLowBalance, SETTINGS_DEFAULTS } from "@twinline/contracts";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { fanEmails, siteSettings } from "../../db/schema/index.ts";
import { enqueuePush } from "../push/enqueue.ts";
import { enqueueFanEmail } from "./enqueue.ts";

/** The low-balance notice is sent at most once in this long to one fan. */
export const LOW_BALANCE_QUIET_DAYS = 7;

/** What one call minute costs now, read in the caller's transaction (settings over defaults). */
async function creditsPerMinuteNow(tx: Database): Promise<number> {
  const [row] = await tx
    .select({ value: sql<unknown>`${siteSettings.data} -> 'creditsPerMinute'` })
    .from(siteSettings);
  const value = row?.value;
  return typeof value === "number" && Number.isInteger(value) && value >= 1
    ? value
    : SETTINGS_DEFAULTS.creditsPerMinute;
}

/**
 * Called by the ledger after a movement that took credits away, in its transaction (the user's
 * row locked, so two at once are one after the other): when the balance just fell below what
 * one call minute costs, the low-balance notice is queued, unless one was queued for this fan in
 * the last 7 days. `sourceKey` is the movement's (unique), the notice's key. The same crossing
 * queues the low-balance push notification (its own cap: one a day; docs/decisions/0082).
 */
export async function noteLowBalance(
  tx: Database,
  movement: { userId: string; before: number; after: number; sourceKey: string },
): Promise<void> {
  if (movement.after >= movement.before) return;
  const creditsPerMinute = await creditsPerMinuteNow(tx);
  // THE low-balance rule (contracts), crossed by this movement.
  if (
    !isLowBalance(movement.after, creditsPerMinute) ||
    isLowBalance(movement.before, creditsPerMinute)
  ) {
    return;
  }
  await enqueuePush(tx, {
    kind: "lowBalance",
    key: `low-balance:${movement.sourceKey}`,
    userId: movement.userId,
    payload: { balance: movement.after, creditsPerMinute },
  });
  const [recent] = await tx
    .select({ id: fanEmails.id })
    .from(fanEmails)
    .where(
      and(
        eq(fanEmails.userId, movement.userId),
        eq(fanEmails.kind, "low_balance"),
        gt(fanEmails.createdAt, sql`now() - make_interval(days => ${LOW_BALANCE_QUIET_DAYS})`),
      ),
    )
    .limit(1);
  if (recent) return;
  await enqueueFanEmail(tx, {
    kind: "low_balance",
    key: `low-balance:${movement.sourceKey}`,
    userId: movement.userId,
    payload: { balance: movement.after, creditsPerMinute },
  });
}
