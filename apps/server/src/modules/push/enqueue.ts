import { PUSH_CAP_MINUTES, type PushKind } from "@twinline/contracts";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { isSqlTrue, rawRows } from "../../db/raw-rows.ts";
import { pushNotices, pushPreferences, pushSubscriptions } from "../../db/schema/index.ts";

/** What each kind's notice carries (rendered into title and body when sent). */
export interface PushNoticePayloads {
  reply: { conversationId: string };
  lowBalance: { balance: number; creditsPerMinute: number };
  renewalFailed: { planName: string };
}

const PREFERENCE_COLUMN = {
  reply: pushPreferences.reply,
  lowBalance: pushPreferences.lowBalance,
  renewalFailed: pushPreferences.renewalFailed,
} as const;

/** What a queuing found: whether a notice was queued, and whether the fan has any device. */
export interface PushQueued {
  queued: boolean;
  subscribed: boolean;
}

/**
 * Queues one push notification for a fan, in the caller's transaction when there is one (a money
 * event's): it exists exactly when the event committed, and `key` (unique) makes a replay add
 * nothing. Nothing is queued when the fan has no subscription (never opted in, or every device
 * gone), has switched this kind off, has had one of this kind within its cap
 * (PUSH_CAP_MINUTES: a notice `cap` minutes old or older no longer counts), or, for a reply, has
 * a tab of the app visible. One statement: the checks and the insert see the same rows.
 * Answers whether one was queued.
 */
export async function enqueuePush<K extends PushKind>(
  db: Database,
  request: { kind: K; key: string; userId: string | null; payload: PushNoticePayloads[K] },
): Promise<boolean> {
  return (await queuePush(db, request)).queued;
}

/** enqueuePush, also answering whether the fan had a device when it ran. */
export async function queuePush<K extends PushKind>(
  db: Database,
  request: { kind: K; key: string; userId: string | null; payload: PushNoticePayloads[K] },
): Promise<PushQueued> {
  // A deleted account's events (their rows kept, detached) notify no one.
  if (!request.userId) return { queued: false, subscribed: false };
  const wants = PREFERENCE_COLUMN[request.kind];
  const capMinutes = PUSH_CAP_MINUTES[request.kind];
  const { visibleUntil } = pushPreferences;
  // A reply is wanted only while no tab of the fan is visible.
  const wantsNow =
    request.kind === "reply"
      ? sql`(${wants} and (${visibleUntil} is null or ${visibleUntil} <= now()))`
      : sql`${wants}`;
  const [row] = await rawRows<{ subscribed: unknown; queued: unknown }>(
    db,
    sql`
    with subscribed as (
      select exists (
        select 1 from ${pushSubscriptions} where ${pushSubscriptions.userId} = ${request.userId}::uuid
      ) as yes
    ),
    queued as (
      insert into ${pushNotices} (idempotency_key, user_id, kind, payload)
      select ${request.key}, ${request.userId}::uuid, ${request.kind}, ${JSON.stringify(request.payload)}::jsonb
      where (select yes from subscribed)
        -- No row yet: the defaults (every kind on, no tab reported).
        and coalesce((
          select ${wantsNow} from ${pushPreferences}
          where ${pushPreferences.userId} = ${request.userId}::uuid
        ), true)
        and not exists (
          select 1 from ${pushNotices}
          where ${pushNotices.userId} = ${request.userId}::uuid and ${pushNotices.kind} = ${request.kind}
            and ${pushNotices.createdAt} > now() - make_interval(mins => ${capMinutes})
        )
      on conflict (idempotency_key) do nothing
      returning id
    )
    select (select yes from subscribed) as subscribed, exists (select 1 from queued) as queued
  `,
  );
  return { queued: isSqlTrue(row?.queued), subscribed: isSqlTrue(row?.subscribed) };
}
