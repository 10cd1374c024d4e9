import { PUSH_VISIBLE_SECONDS, type PushPreferences } from "@twinline/contracts";
import { count, eq, sql } from "drizzle-orm";
import { pushPreferences, pushSubscriptions } from "../../../db/schema/index.ts";
import type { PushDeps } from "./deps.ts";

/** A fan without a row yet: every kind on. */
const DEFAULT_PREFERENCES: PushPreferences = { reply: true, lowBalance: true, renewalFailed: true };

async function preferencesOf(deps: PushDeps, userId: string): Promise<PushPreferences> {
  const [row] = await deps.db
    .select({
      reply: pushPreferences.reply,
      lowBalance: pushPreferences.lowBalance,
      renewalFailed: pushPreferences.renewalFailed,
    })
    .from(pushPreferences)
    .where(eq(pushPreferences.userId, userId));
  return row ?? DEFAULT_PREFERENCES;
}

/** What the fan's settings show: the key to subscribe with, their choices, their devices. */
export async function pushState(deps: PushDeps, userId: string) {
  const [devices] = await deps.db
    .select({ n: count() })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  return {
    publicKey: deps.vapid.publicKey,
    preferences: await preferencesOf(deps, userId),
    devices: devices?.n ?? 0,
  };
}

export async function setPreferences(
  deps: PushDeps,
  userId: string,
  preferences: PushPreferences,
): Promise<PushPreferences> {
  await deps.db
    .insert(pushPreferences)
    .values({ userId, ...preferences })
    .onConflictDoUpdate({ target: pushPreferences.userId, set: preferences });
  return preferences;
}

/** A tab of the fan is visible (for PUSH_VISIBLE_SECONDS, renewed by the web) or not. */
export async function setPresence(deps: PushDeps, userId: string, visible: boolean): Promise<void> {
  const visibleUntil = visible
    ? sql`now() + make_interval(secs => ${PUSH_VISIBLE_SECONDS})`
    : sql`null::timestamptz`;
  // Only for a fan with a device: presence matters to nobody else.
  await deps.db.execute(sql`
    insert into ${pushPreferences} (user_id, visible_until)
    select ${userId}::uuid, ${visibleUntil}
    where exists (select 1 from ${pushSubscriptions} where ${pushSubscriptions.userId} = ${userId}::uuid)
    on conflict (user_id) do update set visible_until = excluded.visible_until
  `);
}
