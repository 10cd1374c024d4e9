import { z } from "zod";
import { safeText, singleLineText } from "./text";

/** The contact form's limits and texts (issue 26, docs/decisions/0067). */
export const CONTACT_LIMITS = {
  nameMax: 100,
  messageMin: 10,
  messageMax: 5000,
} as const;

export const CONTACT_MESSAGES = {
  sent: "Thank you: your message was sent. We will answer by e-mail.",
  nameRequired: "Name is required",
  nameTooLong: `Name must be at most ${CONTACT_LIMITS.nameMax} characters`,
  invalidEmail: "Please enter a valid email address",
  messageTooShort: `Message must be at least ${CONTACT_LIMITS.messageMin} characters`,
  messageTooLong: `Message must be at most ${CONTACT_LIMITS.messageMax} characters`,
  /** The operator has not set a contact address (the page then shows no form). */
  unavailable: "The contact form is not available: no contact address is set",
  failed: "Your message could not be sent. Please try again.",
} as const;

/**
 * The operator's contact address as the admin sets it: empty (none) or an e-mail address. Shown on
 * the contact page; the contact form mails it.
 */
export const contactEmailSchema = z.union([
  z.literal(""),
  singleLineText()
    .trim()
    .max(254)
    .pipe(z.email({ error: "Contact e-mail must be a valid e-mail address" })),
]);

/** POST /api/contact. `website` is a field people never see: a bot that fills it is refused. */
export const contactRequestSchema = z.object({
  name: singleLineText()
    .trim()
    .min(1, { error: CONTACT_MESSAGES.nameRequired })
    .max(CONTACT_LIMITS.nameMax, { error: CONTACT_MESSAGES.nameTooLong }),
  email: singleLineText()
    .trim()
    .toLowerCase()
    .max(254, { error: CONTACT_MESSAGES.invalidEmail })
    .pipe(z.email({ error: CONTACT_MESSAGES.invalidEmail })),
  message: safeText()
    .trim()
    .min(CONTACT_LIMITS.messageMin, { error: CONTACT_MESSAGES.messageTooShort })
    .max(CONTACT_LIMITS.messageMax, { error: CONTACT_MESSAGES.messageTooLong }),
  website: z.string().max(200).optional(),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;

export const contactResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type ContactResponse = z.infer<typeof contactResponseSchema>;

/** The unsubscribe link's page (GET and POST /api/mail/unsubscribe). */
export const UNSUBSCRIBE_MESSAGES = {
  invalid: "This unsubscribe link is not valid",
  confirm: "Stop e-mails that are not about your payments or subscription?",
  done: "You are unsubscribed: we will send you no more e-mails that are not about your payments or subscription.",
} as const;
