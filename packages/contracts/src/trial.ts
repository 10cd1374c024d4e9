import { z } from "zod";
import { chatMessageSchema, sendMessageResultSchema } from "./chat";
import { SETTINGS_DEFAULTS } from "./constants";
import { safeText } from "./text";

/**
 * Try before sign-up (issue 27 item 1; docs/decisions/0084-anonymous-trial.md): a visitor chats
 * with the twin without an account, within the operator's allowance (`anonymousMessages`) and the
 * server's caps per device, per client address and per day for the whole site.
 */
export const TRIAL_CODES = {
  /** The operator set the allowance to 0: no anonymous chat. */
  off: "trial_off",
  /** This device used its allowance: sign up to go on. */
  used: "trial_used",
  /** Too many anonymous messages from this address today. */
  address: "trial_address_limit",
  /** The site's anonymous messages for today are used up. */
  global: "trial_global_limit",
} as const;
export type TrialCode = (typeof TRIAL_CODES)[keyof typeof TRIAL_CODES];

export const TRIAL_MESSAGES = {
  off: "Chatting without an account is not available. Sign up to chat.",
  used: "You have used your free messages. Sign up to keep chatting.",
  address:
    "Too many messages without an account from your network today. Sign up to keep chatting.",
  global: "Free messages without an account are used up for today. Sign up to keep chatting.",
} as const satisfies Record<keyof typeof TRIAL_CODES, string>;

/** The default allowance of anonymous messages per device; 0 turns the trial off. */
export const DEFAULT_ANONYMOUS_MESSAGES = SETTINGS_DEFAULTS.anonymousMessages;

export {
  MAX_ANONYMOUS_MESSAGES,
  TRIAL_CAP_LIMITS,
  TRIAL_DEVICE_HEADER,
  TRIAL_DEVICE_MAX_LENGTH,
  TRIAL_DEVICE_NONE,
} from "./trial-constants";

/** POST /api/trial/message: the visitor's words (the conversation is the device's own). */
export const trialMessageRequestSchema = z.object({
  message: safeText().max(20_000, { error: "Message is too long" }),
});
export type TrialMessageRequest = z.infer<typeof trialMessageRequestSchema>;

/** GET /api/trial: the allowance, what is left of it on this device, and its conversation. */
export const trialStateSchema = z.object({
  /** The operator's setting; 0: the trial is off. */
  allowance: z.number().int().min(0),
  remaining: z.number().int().min(0),
  messages: z.array(chatMessageSchema),
});
export type TrialState = z.infer<typeof trialStateSchema>;
export const trialStateResponseSchema = z.object({
  success: z.literal(true),
  data: trialStateSchema,
});

/**
 * The answer of POST /api/trial/message (and its stream's `done`): the member chat's result,
 * `remaining` the anonymous messages left on this device.
 */
export const trialMessageResponseSchema = z.object({
  success: z.literal(true),
  data: sendMessageResultSchema,
});

/** A refusal of the trial: the error envelope with `code` (TRIAL_CODES). */
export const trialRefusalSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.enum(Object.values(TRIAL_CODES) as [TrialCode, ...TrialCode[]]),
});
