import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { PUSH_KINDS, PUSH_TEXT, type PushPreferences } from "@twinline/contracts";
import { Bell, BellOff } from "lucide-react";
import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { ErrorState } from "@/components/ui/load-states";
import { Spinner } from "@/components/ui/spinner";
import { Toggle } from "@/components/ui/toggle";
import { errorMessage } from "@/lib/api-client";
import { pushQuery, removeSubscription, savePreferences, saveSubscription } from "../api/push-api";
import { ProfileCard } from "./profile-card";

/** Whether this browser can receive Web Push at all. */
const pushSupported = () =>
  typeof window !== "undefined" &&
  "serviceWorker" in navigator &&
  "PushManager" in window &&
  "Notification" in window;

/** The base64url VAPID key as PushManager.subscribe takes it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** This browser's push subscription, if the worker has one. */
async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Notifications (issue 27 item 3): which kinds the fan wants, and turning them on for this
 * device (the browser's permission prompt, then PushManager.subscribe in the app's service
 * worker) or off. Nothing is ever sent to a fan who did not turn them on.
 */
export function NotificationsSection() {
  const client = useQueryClient();
  const state = useQuery({ ...pushQuery(), enabled: pushSupported() });
  const [subscription, setSubscription] = useState<PushSubscription | null | undefined>();
  const [permission, setPermission] = useState(() =>
    pushSupported() ? Notification.permission : "denied",
  );
  useEffect(() => {
    if (!pushSupported()) return;
    currentSubscription()
      .then(setSubscription)
      .catch(() => setSubscription(null));
  }, []);

  const refresh = () => client.invalidateQueries({ queryKey: pushQuery().queryKey });
  const choose = useMutation({
    mutationFn: (preferences: PushPreferences) => savePreferences(preferences),
    onSuccess: () => toast.success(PUSH_TEXT.saved),
    onSettled: refresh,
    onError: (error) => toast.error(errorMessage(error, PUSH_TEXT.failed)),
  });
  const turnOn = useMutation({
    mutationFn: async (publicKey: string) => {
      const answer = await Notification.requestPermission();
      setPermission(answer);
      if (answer !== "granted") return null;
      const registration = await navigator.serviceWorker.ready;
      const made = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey),
      });
      await saveSubscription(made.toJSON());
      return made;
    },
    onSuccess: (made) => {
      if (!made) return;
      setSubscription(made);
      toast.success(PUSH_TEXT.enabled);
    },
    onSettled: refresh,
    onError: (error) => toast.error(errorMessage(error, PUSH_TEXT.failed)),
  });
  const turnOff = useMutation({
    mutationFn: async (current: PushSubscription) => {
      await removeSubscription(current.endpoint);
      await current.unsubscribe().catch(() => false);
    },
    onSuccess: () => setSubscription(null),
    onSettled: refresh,
    onError: (error) => toast.error(errorMessage(error, PUSH_TEXT.failed)),
  });

  const data = state.data;
  return (
    <ProfileCard
      icon={<Bell aria-hidden="true" className="size-5" />}
      title={PUSH_TEXT.title}
      description={PUSH_TEXT.intro}
    >
      {!pushSupported() ? (
        <FormMessage tone="info">{PUSH_TEXT.unsupported}</FormMessage>
      ) : state.isPending || subscription === undefined ? (
        <Spinner />
      ) : state.isError || !data ? (
        <ErrorState
          layout="inline"
          message={PUSH_TEXT.failed}
          onRetry={() => void state.refetch()}
        />
      ) : (
        <div className="space-y-3" data-testid="notifications-section">
          {PUSH_KINDS.map((kind) => (
            <Toggle
              key={kind}
              label={PUSH_TEXT.kinds[kind]}
              checked={data.preferences[kind]}
              onChange={(checked) => choose.mutate({ ...data.preferences, [kind]: checked })}
            />
          ))}
          {permission === "denied" ? (
            <FormMessage tone="info">{PUSH_TEXT.denied}</FormMessage>
          ) : subscription ? (
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-stone-600 dark:text-stone-400" role="status">
                {PUSH_TEXT.enabled}
              </p>
              <button
                type="button"
                className={buttonClasses("secondary", "sm")}
                disabled={turnOff.isPending}
                onClick={() => turnOff.mutate(subscription)}
              >
                <BellOff aria-hidden="true" className="size-4" />
                {PUSH_TEXT.disable}
              </button>
            </div>
          ) : (
            <button
              type="button"
              className={buttonClasses("primary", "sm")}
              disabled={turnOn.isPending}
              onClick={() => turnOn.mutate(data.publicKey)}
            >
              <Bell aria-hidden="true" className="size-4" />
              {PUSH_TEXT.enable}
            </button>
          )}
        </div>
      )}
    </ProfileCard>
  );
}
