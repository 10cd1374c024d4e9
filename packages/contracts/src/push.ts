import { z } from "zod";

// Web Push (issue 27 item 3, docs/decisions/0082): the fan's opt-in, per kind, under /api/push.

/** The notifications a fan can choose, in the profile's order. */
export const PUSH_KINDS = ["reply", "lowBalance", "renewalFailed"] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** The longest push endpoint accepted (real ones are under 600 characters). */
export const PUSH_ENDPOINT_MAX_LENGTH = 1000;

/**
 * Frequency caps: at most one notification of a kind per fan in this many minutes (reply: one
 * per 10 minutes; low balance: one a day; a failed renewal: one a day, whatever the retries).
 */
export const PUSH_CAP_MINUTES: Record<PushKind, number> = {
  reply: 10,
  lowBalance: 24 * 60,
  renewalFailed: 24 * 60,
};

/** How long a tab's "visible" report holds (the web repeats it every minute while shown). */
export const PUSH_VISIBLE_SECONDS = 150;

export const PUSH_TEXT = {
  title: "Notifications",
  intro: "Get a notification on this device when:",
  kinds: {
    reply: "A reply arrives while you are away",
    lowBalance: "Your credits run low",
    renewalFailed: "A subscription renewal fails",
  },
  enable: "Turn on notifications",
  disable: "Turn off on this device",
  save: "Save",
  saved: "Notification settings updated",
  enabled: "Notifications are on for this device",
  unsupported: "This browser cannot show notifications",
  denied: "Notifications are blocked for this site in your browser settings",
  failed: "Could not turn on notifications",
} as const;

/** What a notification says (its payload's title and body). */
export const PUSH_NOTICE_TEXT = {
  reply: (personaName: string) => `New message from ${personaName}`,
  lowBalance: "Low balance",
  lowBalanceBody: (credits: number, creditsPerMinute: number) =>
    `You have ${credits.toLocaleString("en-US")} ${credits === 1 ? "credit" : "credits"}: ` +
    `a call minute costs ${creditsPerMinute.toLocaleString("en-US")}.`,
  renewalFailed: "Renewal failed",
  renewalFailedBody: (planName: string) =>
    `We could not renew ${planName}. Check your payment details to keep your plan.`,
} as const;

export const PUSH_MESSAGES = {
  subscribed: "Notifications turned on",
  unsubscribed: "Notifications turned off",
  updated: PUSH_TEXT.saved,
  badEndpoint: "endpoint must be an https URL of at most 1000 characters",
  badKey: (field: string) => `${field} is not a valid key`,
} as const;

/** The payload the service worker receives (JSON), for every kind. */
export interface PushPayload {
  kind: PushKind;
  title: string;
  body: string;
  /** The app's path to open on a click. */
  url: string;
  /** Notifications with the same tag replace each other. */
  tag: string;
}

const base64url = (field: string, bytes: number) =>
  z
    .string({ error: PUSH_MESSAGES.badKey(field) })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: PUSH_MESSAGES.badKey(field) })
    // Its decoded length, without decoding (this module runs in the browser too).
    .refine((value) => Math.floor((value.replace(/=+$/, "").length * 3) / 4) === bytes, {
      error: PUSH_MESSAGES.badKey(field),
    });

/**
 * POST /api/push/subscriptions: PushSubscription.toJSON() of this browser. The server checks the
 * endpoint's scheme (https, or the one test origin it is told of) and length; the keys are a
 * P-256 point (65 bytes) and a 16-byte auth secret.
 */
export const pushSubscribeRequestSchema = z.object({
  endpoint: z
    .string({ error: PUSH_MESSAGES.badEndpoint })
    .max(PUSH_ENDPOINT_MAX_LENGTH, { error: PUSH_MESSAGES.badEndpoint })
    .pipe(z.url({ error: PUSH_MESSAGES.badEndpoint })),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    { p256dh: base64url("keys.p256dh", 65), auth: base64url("keys.auth", 16) },
    { error: "keys must hold p256dh and auth" },
  ),
});
export type PushSubscribeRequest = z.infer<typeof pushSubscribeRequestSchema>;

/** DELETE /api/push/subscriptions: the endpoint this browser stops receiving at. */
export const pushUnsubscribeRequestSchema = z.object({
  endpoint: z
    .string({ error: PUSH_MESSAGES.badEndpoint })
    .min(1, { error: PUSH_MESSAGES.badEndpoint })
    .max(PUSH_ENDPOINT_MAX_LENGTH, { error: PUSH_MESSAGES.badEndpoint }),
});

export const pushPreferencesSchema = z.object({
  reply: z.boolean({ error: "reply must be true or false" }),
  lowBalance: z.boolean({ error: "lowBalance must be true or false" }),
  renewalFailed: z.boolean({ error: "renewalFailed must be true or false" }),
});
export type PushPreferences = z.infer<typeof pushPreferencesSchema>;

/** GET /api/push: the public VAPID key, the fan's choices and how many devices are on. */
export const pushStateSchema = z.object({
  publicKey: z.string(),
  preferences: pushPreferencesSchema,
  devices: z.number().int(),
});
export type PushState = z.infer<typeof pushStateSchema>;
export const pushStateResponseSchema = z.object({
  success: z.literal(true),
  data: pushStateSchema,
});

/** PUT /api/push/preferences answers the saved choices. */
export const pushPreferencesResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: pushPreferencesSchema,
});

/** PUT /api/push/presence: whether a tab of the fan is visible now. */
export const pushPresenceRequestSchema = z.object({
  visible: z.boolean({ error: "visible must be true or false" }),
});

export const pushChangedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});
