import {
  PUSH_MESSAGES,
  PUSH_NOTICE_TEXT,
  PUSH_VISIBLE_SECONDS,
  type PublicSettings,
  type PushKind,
  type PushPayload,
  type PushPreferences,
  type PushSubscribeRequest,
} from "@twinline/contracts";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { writeAndNotify } from "../../db/cached-by-notify.ts";
import type { Database } from "../../db/client.ts";
import { pushNotices, pushPreferences, pushSubscriptions } from "../../db/schema/index.ts";
import { HttpError } from "../../plugins/errors.ts";
import { lazy } from "../../providers/lazy.ts";
import type { VapidKeys } from "../../secrets.ts";
import { type PushNoticePayloads, queuePush } from "./enqueue.ts";

// web-push (and its crypto dependencies) is needed at the first notice sent, not at boot (issue 28).
const loadWebPush = lazy(async () => (await import("web-push")).default);

/** Notified in the transaction of every device added or moved to a fan (plugin.ts listens). */
export const PUSH_DEVICES_CHANNEL = "push_devices_changed";
/** Fans known to have no device, at most this many kept (the oldest forgotten first). */
const DEVICELESS_LIMIT = 10_000;

/** Notices claimed per pass of the sender. */
const SEND_BATCH = 50;
/** How long one push service may take to answer. */
const SEND_TIMEOUT_MS = 10_000;
/** How long the push service keeps a notice for a device that is offline (seconds). */
const TTL_SECONDS: Record<PushKind, number> = {
  reply: 60 * 60,
  lowBalance: 24 * 60 * 60,
  renewalFailed: 24 * 60 * 60,
};
/** Where a click on each kind takes the fan. */
const OPENS: Record<PushKind, string> = {
  reply: "/dashboard/chat",
  lowBalance: "/dashboard/credits",
  renewalFailed: "/dashboard/credits",
};

export interface PushServiceDeps {
  db: Database;
  vapid: VapidKeys;
  /** The VAPID subject: a mailto: or https: URL naming the operator. */
  subject: string;
  /** An http origin accepted as a push endpoint (a local test push service); else https only. */
  httpOrigin: string | undefined;
  settings: { get(): Promise<Readonly<PublicSettings>> };
  log: FastifyBaseLogger;
  /**
   * Whether every device added is heard of (PUSH_DEVICES_CHANNEL's watch, plugin.ts): only then
   * are the fans without one remembered. None: never (each reply asks the database).
   */
  devicesWatched?: () => boolean;
}

/** Whether an endpoint may be pushed to: https, or the one http origin configured for tests. */
export function acceptableEndpoint(endpoint: string, httpOrigin: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return url.protocol === "https:" || (httpOrigin !== undefined && url.origin === httpOrigin);
}

const DEFAULT_PREFERENCES: PushPreferences = { reply: true, lowBalance: true, renewalFailed: true };

function render(
  kind: PushKind,
  payload: Record<string, unknown>,
  personaName: string,
): PushPayload {
  const base = { kind, url: OPENS[kind], tag: kind };
  if (kind === "reply") {
    // No words of the conversation: a notification shows on a locked screen.
    return { ...base, title: PUSH_NOTICE_TEXT.reply(personaName), body: "Tap to read it." };
  }
  if (kind === "lowBalance") {
    const { balance, creditsPerMinute } = payload as unknown as PushNoticePayloads["lowBalance"];
    return {
      ...base,
      title: PUSH_NOTICE_TEXT.lowBalance,
      body: PUSH_NOTICE_TEXT.lowBalanceBody(balance, creditsPerMinute),
    };
  }
  const { planName } = payload as unknown as PushNoticePayloads["renewalFailed"];
  return {
    ...base,
    title: PUSH_NOTICE_TEXT.renewalFailed,
    body: PUSH_NOTICE_TEXT.renewalFailedBody(planName),
  };
}

/**
 * Web Push for fans (issue 27 item 3, docs/decisions/0082): their devices and choices, the
 * presence of a visible tab, and the sender of the queued notices (push_notices).
 */
export function createPushService(deps: PushServiceDeps) {
  const { db, log } = deps;
  const devicesWatched = deps.devicesWatched ?? (() => false);
  // Most fans never turn notifications on, and every reply asked the database whether its fan
  // had (issue 28 item 5: one of a chat send's six statements). A fan found without a device
  // is remembered until a device is added anywhere (devicesChanged); the generation stops a
  // reply that asked before that addition from remembering the old answer.
  const deviceless = new Set<string>();
  let devicesGeneration = 0;
  const rememberDeviceless = (userId: string) => {
    deviceless.add(userId);
    if (deviceless.size > DEVICELESS_LIMIT) {
      const oldest = deviceless.values().next();
      if (!oldest.done) deviceless.delete(oldest.value);
    }
  };

  const preferencesOf = async (userId: string): Promise<PushPreferences> => {
    const [row] = await db
      .select({
        reply: pushPreferences.reply,
        lowBalance: pushPreferences.lowBalance,
        renewalFailed: pushPreferences.renewalFailed,
      })
      .from(pushPreferences)
      .where(eq(pushPreferences.userId, userId));
    return row ?? DEFAULT_PREFERENCES;
  };

  /** Sends one notice to every device of its fan; a device the service calls gone is deleted. */
  const deliver = async (notice: {
    userId: string;
    kind: string;
    payload: Record<string, unknown>;
  }): Promise<boolean> => {
    const kind = notice.kind as PushKind;
    const devices = await db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, notice.userId));
    if (devices.length === 0) return true;
    const personaName = (await deps.settings.get()).aiProfile.name;
    const body = JSON.stringify(render(kind, notice.payload, personaName));
    const webPush = await loadWebPush();
    const gone: string[] = [];
    let delivered = 0;
    await Promise.all(
      devices.map(async (device) => {
        try {
          // web-push makes the request (VAPID token, aes128gcm payload); fetch sends it, so an
          // http test push service works too (web-push's own sender speaks https only).
          const request = webPush.generateRequestDetails(
            { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
            body,
            {
              vapidDetails: { subject: deps.subject, ...deps.vapid },
              TTL: TTL_SECONDS[kind],
              urgency: kind === "reply" ? "high" : "normal",
              topic: kind,
            },
          );
          const response = await fetch(request.endpoint, {
            method: "POST",
            headers: request.headers as Record<string, string>,
            body: request.body ? new Uint8Array(request.body) : null,
            redirect: "manual",
            signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
          });
          await response.body?.cancel();
          if (response.status >= 200 && response.status < 300) {
            delivered += 1;
          } else if (response.status === 404 || response.status === 410) {
            gone.push(device.id);
          } else {
            // The endpoint (a capability URL) and the keys stay out of the log.
            log.warn({ status: response.status, kind }, "A push service refused a notification");
          }
        } catch (error) {
          // Its kind only: a network error's text may carry the endpoint.
          const code = (error as { cause?: { code?: unknown } }).cause?.code;
          log.warn({ kind, code, name: (error as Error).name }, "A push could not be sent");
        }
      }),
    );
    if (gone.length > 0) {
      await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, gone));
    }
    return delivered > 0 || gone.length === devices.length;
  };

  /** One pass: claims the pending notices (skip locked: once across instances) and sends them. */
  const sendDue = async (): Promise<number> => {
    let sent = 0;
    for (;;) {
      const claimed = (await db.execute(sql`
        update ${pushNotices} set status = 'sent', sent_at = now()
        where id in (
          select id from ${pushNotices} where status = 'pending'
          order by created_at limit ${SEND_BATCH} for update skip locked
        )
        returning id, user_id as "userId", kind, payload
      `)) as unknown as {
        rows: { id: string; userId: string; kind: string; payload: Record<string, unknown> }[];
      };
      for (const notice of claimed.rows) {
        // At most once: a notice is marked sent before it goes, never sent twice.
        const ok = await deliver(notice).catch((error: unknown) => {
          log.error({ err: error, kind: notice.kind }, "Sending a push notification failed");
          return false;
        });
        if (ok) sent += 1;
        else
          await db
            .update(pushNotices)
            .set({ status: "failed" })
            .where(eq(pushNotices.id, notice.id));
      }
      if (claimed.rows.length < SEND_BATCH) return sent;
    }
  };

  return {
    publicKey: deps.vapid.publicKey,
    sendDue,

    async state(userId: string) {
      const [devices] = await db
        .select({ n: count() })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId));
      return {
        publicKey: deps.vapid.publicKey,
        preferences: await preferencesOf(userId),
        devices: devices?.n ?? 0,
      };
    },

    /** Adds (or moves to this fan) the browser's subscription. */
    async subscribe(userId: string, body: PushSubscribeRequest): Promise<void> {
      if (!acceptableEndpoint(body.endpoint, deps.httpOrigin)) {
        throw new HttpError(400, PUSH_MESSAGES.badEndpoint, { field: "endpoint" });
      }
      // Notified: every instance forgets the fans it knew without a device.
      await writeAndNotify(db, PUSH_DEVICES_CHANNEL, async (tx) => {
        await tx
          .insert(pushSubscriptions)
          .values({
            userId,
            endpoint: body.endpoint,
            p256dh: body.keys.p256dh,
            auth: body.keys.auth,
          })
          .onConflictDoUpdate({
            target: pushSubscriptions.endpoint,
            set: { userId, p256dh: body.keys.p256dh, auth: body.keys.auth },
          });
        await tx.insert(pushPreferences).values({ userId }).onConflictDoNothing();
      });
    },

    /** A device was added somewhere (PUSH_DEVICES_CHANNEL): no fan is known deviceless now. */
    devicesChanged() {
      devicesGeneration++;
      deviceless.clear();
    },

    async unsubscribe(userId: string, endpoint: string): Promise<void> {
      await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
    },

    async setPreferences(userId: string, preferences: PushPreferences): Promise<PushPreferences> {
      await db
        .insert(pushPreferences)
        .values({ userId, ...preferences })
        .onConflictDoUpdate({ target: pushPreferences.userId, set: preferences });
      return preferences;
    },

    /** A tab of the fan is visible (for PUSH_VISIBLE_SECONDS, renewed by the web) or not. */
    async setPresence(userId: string, visible: boolean): Promise<void> {
      const visibleUntil = visible
        ? sql`now() + make_interval(secs => ${PUSH_VISIBLE_SECONDS})`
        : sql`null::timestamptz`;
      // Only for a fan with a device: presence matters to nobody else.
      await db.execute(sql`
        insert into ${pushPreferences} (user_id, visible_until)
        select ${userId}::uuid, ${visibleUntil}
        where exists (select 1 from ${pushSubscriptions} where ${pushSubscriptions.userId} = ${userId}::uuid)
        on conflict (user_id) do update set visible_until = excluded.visible_until
      `);
    },

    /** Queues the "reply while away" notice of a saved reply (not in a transaction). */
    async replySaved(userId: string, conversationId: string, messageId: string): Promise<boolean> {
      const watched = devicesWatched();
      if (watched && deviceless.has(userId)) return false;
      const generation = devicesGeneration;
      const { queued, subscribed } = await queuePush(db, {
        kind: "reply",
        key: `reply:${messageId}`,
        userId,
        payload: { conversationId },
      });
      if (!subscribed && watched && devicesWatched() && generation === devicesGeneration) {
        rememberDeviceless(userId);
      }
      return queued;
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
