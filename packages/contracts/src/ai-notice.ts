import type { ProductMessageKind } from "./chat";

/**
 * The fan always knows the twin is an AI (issue 25, items 1 and 6;
 * docs/decisions/0058-ai-notice-and-sittings.md). The notice and the break reminder are the
 * product's messages, not the persona's: never sent to the model, never charged, stored.
 */

/** The notice, spelled as the issue gives it. */
export const aiNoticeText = (personaName: string) =>
  `${personaName} is an AI and not a human being. It cannot feel human emotion.`;

/** The gentle reminder given with the notice after 3 hours of continuous use in one sitting. */
export const BREAK_REMINDER_TEXT =
  "You have been here for 3 hours. It might be a good moment to take a break: stretch, drink " +
  "some water, rest your eyes. We will be here when you come back.";

/** The marker shown beside the persona's name wherever it appears (chat, call, pages, dashboard). */
export const AI_MARKER_TEXT = "AI";
/** What a screen reader hears for the marker. */
export const AI_MARKER_LABEL = "AI: not a human being";

/** The notice is given again once this long has passed since the last one in the sitting. */
export const AI_NOTICE_REPEAT_MS = 3 * 60 * 60 * 1000;
/** A break reminder after this long of continuous use in one sitting (and again each time after). */
export const BREAK_REMINDER_AFTER_MS = 3 * 60 * 60 * 1000;
/**
 * One sitting: the fan's activity (a chat message, a live call) with no gap longer than this.
 * A longer gap ends the sitting; the next activity starts a new one (and gives the notice).
 */
export const SITTING_GAP_MS = 30 * 60 * 1000;

/** How a product message is named where messages are listed (admin logs, CSV, transcripts). */
export const PRODUCT_KIND_LABELS: Record<ProductMessageKind, string> = {
  "ai-notice": "AI notice",
  "break-reminder": "Break reminder",
  "crisis-support": "Crisis support",
};
