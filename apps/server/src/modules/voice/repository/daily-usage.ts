import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { voiceDailyUsage } from "../../../db/schema/index.ts";

/** A user's daily caps on provider spend outside a paid call. */
export interface VoiceUsageLimits {
  synthesizedCharacters: number;
  llmCalls: number;
}
export type UsageAmount = Partial<VoiceUsageLimits>;

/** An amount as whole counts (what it does not name is none). */
export function usageCounts(amount: UsageAmount): { characters: number; calls: number } {
  return { characters: amount.synthesizedCharacters ?? 0, calls: amount.llmCalls ?? 0 };
}

/** An amount larger than a whole day's cap: refused without asking the database. */
export function exceedsDailyCap(amount: UsageAmount, limits: VoiceUsageLimits): boolean {
  const { characters, calls } = usageCounts(amount);
  return characters > limits.synthesizedCharacters || calls > limits.llmCalls;
}

/**
 * Adds `amount` to the user's usage of `day` if it stays within `limits`, atomically (one
 * upsert whose update is conditional): answers whether it was added.
 */
export async function addDailyUsage(
  db: Database,
  userId: string,
  day: string,
  amount: UsageAmount,
  limits: VoiceUsageLimits,
): Promise<boolean> {
  if (exceedsDailyCap(amount, limits)) return false;
  const { characters, calls } = usageCounts(amount);
  const rows = await db
    .insert(voiceDailyUsage)
    .values({ userId, day, synthesizedCharacters: characters, llmCalls: calls })
    .onConflictDoUpdate({
      target: [voiceDailyUsage.userId, voiceDailyUsage.day],
      set: {
        synthesizedCharacters: sql`${voiceDailyUsage.synthesizedCharacters} + ${characters}`,
        llmCalls: sql`${voiceDailyUsage.llmCalls} + ${calls}`,
      },
      setWhere: sql`${voiceDailyUsage.synthesizedCharacters} + ${characters} <= ${limits.synthesizedCharacters}
        and ${voiceDailyUsage.llmCalls} + ${calls} <= ${limits.llmCalls}`,
    })
    .returning({ userId: voiceDailyUsage.userId });
  return rows.length > 0;
}

/** Takes `amount` counted ahead and not used back off the user's usage of `day`. */
export async function giveBackDailyUsage(
  db: Database,
  userId: string,
  day: string,
  amount: UsageAmount,
): Promise<void> {
  const { characters, calls } = usageCounts(amount);
  await db
    .update(voiceDailyUsage)
    .set({
      synthesizedCharacters: sql`greatest(0, ${voiceDailyUsage.synthesizedCharacters} - ${characters})`,
      llmCalls: sql`greatest(0, ${voiceDailyUsage.llmCalls} - ${calls})`,
    })
    .where(and(eq(voiceDailyUsage.userId, userId), eq(voiceDailyUsage.day, day)));
}
