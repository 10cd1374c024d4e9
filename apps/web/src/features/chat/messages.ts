import { CHAT_MESSAGES } from "@twinline/contracts";

/** The chat screen's texts (user-side spec, sections 5 and 8), spelled as the spec spells them. */
export const CHAT_TEXT = {
  fallbackBubble: "I'm having trouble connecting to my services. Please try again later.",
  limitBubble:
    "You've reached your daily message limit. Subscribe to our service for unlimited messaging!",
  limitToastTitle: "Message Limit Reached",
  limitToastBody: (dailyLimit: number) =>
    `You've used all ${dailyLimit} free messages for today. Subscribe for unlimited messaging.`,
  subscribe: "Subscribe",
  clearConfirm: "Are you sure you want to clear your chat history? This cannot be undone.",
  wordLimitTitle: "Word limit exceeded",
  wordLimitBody: CHAT_MESSAGES.tooManyWords,
  failedAiResponse: CHAT_MESSAGES.aiFailure,
  aiServiceError: "Error communicating with AI service",
  failedLoadChat: "Failed to load chat data",
  failedLoadMessages: "Failed to load messages",
  failedClear: "Failed to clear chat history",
  historyCleared: CHAT_MESSAGES.historyCleared,
  replyFailedMark: "No reply: sending failed",
} as const;

/** Messages per page (user-side spec, section 9). */
export const CHAT_PAGE_SIZE = 20;
/** Older messages load when the list is scrolled this close to its top. */
export const LOAD_OLDER_THRESHOLD_PX = 30;
/** Chat list cache: kept 10 s, old after 10 s (requests for the same page are shared). */
export const CHAT_CACHE_MS = 10_000;
export const CHAT_STALE_MS = 10_000;
/** A reload of the conversation happens at most once in this time. */
export const CHAT_RELOAD_THROTTLE_MS = 3_000;
