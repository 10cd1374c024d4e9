import { VOICE_MESSAGES } from "@twinline/contracts";

/** What the call screens say (user-side spec section 8; the shared texts come from the contract). */
export const CALL_TEXT = {
  ...VOICE_MESSAGES,
  noWebSocket: "Your browser does not support WebSocket connections",
  noRecording: "Your browser does not support audio recording",
  microphoneDenied: "Could not access microphone. Please check your device permissions.",
  somethingWentWrong: "Something went wrong",
  disconnectedUnexpectedly: "Call disconnected unexpectedly",
  sessionExpired: "Your session has expired. Please log in again.",
  checkCreditsFailed: "Failed to check credits. Please try again.",
  /** Issue 24: the connection dropped and the call is being taken up again. */
  reconnecting: "Reconnecting…",
  /** Issue 25: the persona's speech is synthetic, and the call says so while it plays. */
  aiGeneratedVoice: "AI-generated voice",
} as const;
