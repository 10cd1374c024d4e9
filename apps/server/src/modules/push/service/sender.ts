import type { PushKind } from "@twinline/contracts";
import { eq, inArray, sql } from "drizzle-orm";
import { pushNotices, pushSubscriptions } from "../../../db/schema/index.ts";
import { lazy } from "../../../providers/lazy.ts";
import type { PushDeps } from "./deps.ts";
import { renderNotice } from "./render.ts";

// web-push (and its crypto dependencies) is needed at the first notice sent, not at boot (issue 28).
const loadWebPush = lazy(async () => (await import("web-push")).default);

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

interface ClaimedNotice {
  id: string;
  userId: string;
  kind: string;
  payload: Record<string, unknown>;
}

/** One pass: claims the pending notices (skip locked: once across instances) and sends them. */
export async function sendDue(deps: PushDeps): Promise<number> {
  const { db, log } = deps;
  let sent = 0;
  for (;;) {
    const claimed = (await db.execute(sql`
      update ${pushNotices} set status = 'sent', sent_at = now()
      where id in (
        select id from ${pushNotices} where status = 'pending'
        order by created_at limit ${SEND_BATCH} for update skip locked
      )
      returning id, user_id as "userId", kind, payload
    `)) as unknown as { rows: ClaimedNotice[] };
    for (const notice of claimed.rows) {
      // At most once: a notice is marked sent before it goes, never sent twice.
      const ok = await deliver(deps, notice).catch((error: unknown) => {
        log.error({ err: error, kind: notice.kind }, "Sending a push notification failed");
        return false;
      });
      if (ok) sent += 1;
      else
        await db.update(pushNotices).set({ status: "failed" }).where(eq(pushNotices.id, notice.id));
    }
    if (claimed.rows.length < SEND_BATCH) return sent;
  }
}

/** Sends one notice to every device of its fan; a device the service calls gone is deleted. */
async function deliver(deps: PushDeps, notice: ClaimedNotice): Promise<boolean> {
  const { db, log } = deps;
  const kind = notice.kind as PushKind;
  const devices = await db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, notice.userId));
  if (devices.length === 0) return true;
  const personaName = (await deps.settings.get()).aiProfile.name;
  const body = JSON.stringify(renderNotice(kind, notice.payload, personaName));
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
}
