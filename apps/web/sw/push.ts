/// <reference lib="webworker" />
// Web Push in the service worker (issue 27 item 3, docs/decisions/0082): the server's payload
// (packages/contracts/src/push.ts, PushPayload) shown as a notification; a click opens or
// focuses the app at the notification's page. No import of the contracts: zod stays out of here.

export interface PushMessage {
  kind: "reply" | "lowBalance" | "renewalFailed";
  title: string;
  body: string;
  url: string;
  tag: string;
}

const KINDS = new Set(["reply", "lowBalance", "renewalFailed"]);
const ICON = "/icons/icon-192.png";

/** The payload, when it is one of ours; its url is a path of this app (never another site). */
export function parsePush(data: unknown): PushMessage | null {
  if (typeof data !== "object" || data === null) return null;
  const message = data as Record<string, unknown>;
  const { kind, title, body, url, tag } = message;
  if (typeof kind !== "string" || !KINDS.has(kind)) return null;
  if (typeof title !== "string" || typeof body !== "string" || typeof tag !== "string") {
    return null;
  }
  if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//")) return null;
  return { kind: kind as PushMessage["kind"], title, body, url, tag };
}

function readJson(event: PushEvent): unknown {
  try {
    return event.data?.json();
  } catch {
    return null;
  }
}

/** Shows the notification (a reply is not shown over a focused tab of the app: the fan sees it). */
export async function showPush(worker: ServiceWorkerGlobalScope, event: PushEvent): Promise<void> {
  const message = parsePush(readJson(event));
  if (!message) return;
  if (message.kind === "reply") {
    const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
    if (windows.some((client) => client.focused)) return;
  }
  await worker.registration.showNotification(message.title, {
    body: message.body,
    tag: message.tag,
    icon: ICON,
    badge: ICON,
    data: { url: message.url },
  });
}

/** A click: a tab of the app is focused (and taken to the page), else one is opened. */
export async function openFromNotification(
  worker: ServiceWorkerGlobalScope,
  event: NotificationEvent,
): Promise<void> {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  const path =
    typeof data?.url === "string" && data.url.startsWith("/") && !data.url.startsWith("//")
      ? data.url
      : "/dashboard/chat";
  const target = new URL(path, worker.location.origin).href;
  const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => client.url === target) ?? windows[0];
  if (open) {
    const focused = await open.focus();
    if (focused.url !== target) await focused.navigate(target).catch(() => null);
    return;
  }
  await worker.clients.openWindow(target);
}
