import { z } from "zod";
import { paginationSchema } from "./api";
import { CHAT_SENDERS, PRODUCT_MESSAGE_KINDS } from "./chat";

/**
 * The live voice call (user-side spec sections 4, 7, 8, 9; docs/decisions/0021-voice-call.md).
 *
 * Socket: `GET /api/voice-call/ws?token=<Bearer token>&csrf=<csrf token, optional>`.
 * - client → server, binary: one self-contained audio file per utterance (webm/ogg/mp3/wav),
 *   more than VOICE_MIN_UTTERANCE_BYTES bytes; smaller frames are ignored.
 * - client → server, JSON: `interrupt` (barge-in: the rest of the reply is cancelled) and
 *   `end` (hang up: the call is closed and the socket closes with 1000).
 * - Eager end of turn (not in the spec; docs/decisions/0042-eager-end-of-turn.md): JSON
 *   `candidate {candidateId}` announces that the NEXT binary frame is the utterance so far, sent
 *   on a short pause: the server transcribes and answers it at once but sends nothing of it
 *   until `commit {candidateId}` (the pause reached the end of the turn); `cancel {candidateId}`
 *   (the fan spoke again) drops it, and the next candidate carries the whole utterance. A binary
 *   frame without a `candidate` before it is an utterance committed at once (the spec's way).
 * - Hesitant speech (docs/decisions/0053-hesitant-speech-and-reconnect.md): once a candidate is
 *   transcribed the server says at once (not held) `candidate_heard {candidateId, unfinished}`,
 *   and the client waits longer before committing unfinished words; a `cancel` of the candidate
 *   just committed (the fan went on speaking right after the commit) drops its answer, which is
 *   never stored, and the next candidate carries the whole utterance.
 * - server → client, JSON: the messages of voiceServerMessageSchema.
 * - server → client, binary: audio of the persona's reply. Each binary frame is ONE complete,
 *   self-contained audio file (one sentence, in `audio_start.format`), playable on its own;
 *   the frames of a reply arrive in order between its `audio_start` and `audio_complete`.
 */

/** Spec texts (user-side section 8) and the server's own call messages. */
export const VOICE_MESSAGES = {
  insufficientCredits: "Insufficient credits for voice call",
  notEnoughCredits: "Not enough credits to start a call",
  needCredits: (needed: number, current: number) =>
    `You need at least ${needed} credits to start a call. You currently have ${current} credits.`,
  connectionError: "Connection error. Please try again.",
  connectionLost: "Connection lost unexpectedly",
  callDisconnected: "Call disconnected",
  processFailed: "Failed to process your message",
  synthesizeFailed: "Failed to generate voice response",
  historyFailed: "Failed to fetch call history",
  endFailed: "Failed to update call record",
  playFailed: "Failed to play audio response",
  callNotFound: "Call not found",
  /** Not in the spec: voice off in the settings (site or AI profile). */
  voiceDisabled: "Voice calls are turned off at the moment",
  /** Not in the spec: sent as `credit_warning` before the last affordable minute. */
  creditWarning: (minutesLeft: number) =>
    minutesLeft <= 1
      ? "Your credits are running low: the call ends when this minute is over"
      : `Your credits are running low: about ${minutesLeft} minutes of call time left`,
  /** Not in the spec: `call_ended` once the credits run out. */
  creditsRunOut: "Your credits have run out. The call has ended.",
  /** `call_ended` when the user hangs up (the `end` message). */
  callEnded: "Call ended",
  /** `call_ended` to a socket whose call was taken over by a newer socket of the same user. */
  replaced: "The call continued on another connection",
  /** Not in the spec: the refusal of a second call while the fan's call is live (one per fan). */
  callInProgress: "You already have a voice call in progress. End it before starting another one.",
  /** Not in the spec: POST synthesize or process, or utterances on a call, too often (per user, per minute). */
  tooManyRequests: "Too many requests. Please wait a minute and try again.",
  /** Not in the spec: a user's daily cap on synthesize or process is reached. */
  dailyLimit: "You have reached today's limit for voice replies. Please try again tomorrow.",
  /** `call_ended` when the server shuts down (and the refusal of a call while it does). */
  serverClosing: "The server is restarting. Please call again in a moment.",
  /** `transcription` (offline: true) when no speech-to-text key is set. */
  offlineTranscription: "Speech is not transcribed offline: no speech-to-text key is set",
  /** Not in the spec: shown on a call whose speech is recognised offline (pocketsphinx). */
  roughRecognition:
    "Speech is recognised offline on this server: it is rough, so some words may be misheard.",
  /** Not in the spec: the token query parameter is missing or no longer valid. */
  unauthorized: "Your session has expired. Please log in again.",
  noCall: "No voice call found",
  /** After the stored text of a reply the fan cut short (barge-in): what was spoken, then this. */
  interruptedMark: "(interrupted)",
  /** Not in the spec: the one turn of a call in which no speech was recognised (chat, logs). */
  nothingHeard: "(Nothing was heard on this call)",
} as const;

/** The smallest utterance the server reads (spec: audio blobs larger than 1000 bytes). */
export const VOICE_MIN_UTTERANCE_BYTES = 1000;
/** The largest utterance accepted (one binary frame); bigger frames get an `error`. */
export const VOICE_MAX_UTTERANCE_BYTES = 10 * 1024 * 1024;
/** Seconds in a billed minute. */
export const SECONDS_PER_MINUTE = 60;

/**
 * Close codes of the socket. 1000 is a normal end (hang-up, credits run out, call_ended);
 * the 44xx codes are refusals at the start, each preceded by an `error` message, except
 * `sessionEnded`, which ends a live call after `call_ended`.
 */
export const VOICE_CLOSE_CODES = {
  normal: 1000,
  /** The server is restarting (shutdown): call again in a moment. */
  serverRestart: 1012,
  /** No token, a bad or ended token, a deactivated account. */
  unauthorized: 4401,
  /** Fewer credits than one minute costs. */
  insufficientCredits: 4402,
  /** enableVoiceConversation is off (site or AI profile). */
  voiceDisabled: 4403,
  /** The fan already has a live call (here or on another instance); nothing was charged. */
  callInProgress: 4409,
  /** The account has no date of birth yet (made before sign-up asked): the web asks for it. */
  dateOfBirthRequired: 4428,
  /** The account's date of birth is under the operator's minimum age. */
  underAge: 4451,
  /**
   * Mid-call: the session that opened the call ended (logout, password change or reset,
   * deactivation); `call_ended` (reason `session`) comes first. The same code as unauthorized.
   */
  sessionEnded: 4401,
  /**
   * A reconnection asked to resume a call (`resume` in the query) that is no longer live: the
   * call ended (the grace ran out, hang-up elsewhere); nothing new was started or charged.
   */
  notResumable: 4404,
  /** The socket a resumed call left (the client reconnected before the server saw it drop). */
  resumedElsewhere: 4410,
} as const;

/** How long a dropped call waits for its user to reconnect (the same call and minute go on). */
export const VOICE_RESUME_GRACE_MS = 15_000;

/** The most text POST synthesize and process accept. */
export const VOICE_TEXT_MAX_CHARS = 1_000;

/** Spec: call cost = duration rounded up to whole minutes × creditsPerMinute. */
export function callCost(durationSeconds: number, creditsPerMinute: number): number {
  return Math.ceil(Math.max(0, durationSeconds) / SECONDS_PER_MINUTE) * creditsPerMinute;
}

// ---- socket: server → client ----

export const voiceCallStartedMessageSchema = z.object({
  /** Not in the spec: the call was accepted and its first minute charged. */
  type: z.literal("call_started"),
  callId: z.string(),
  creditsPerMinute: z.number().int(),
  /** Balance after the first minute. */
  creditsRemaining: z.number().int(),
  /**
   * The server's modes: offline STT means speech is not transcribed; pocketsphinx, that it is
   * recognised offline, roughly.
   */
  stt: z.enum(["openai", "pocketsphinx", "offline"]),
  tts: z.enum(["elevenlabs", "offline"]),
  /** Not in the spec: a reconnection within the grace took the dropped call over. */
  resumed: z.boolean().optional(),
});

export const voiceTranscriptionMessageSchema = z.object({
  type: z.literal("transcription"),
  /** What the user said; with `offline`, the notice that speech is not transcribed. */
  text: z.string(),
  offline: z.boolean().optional(),
});

export const voiceResponseMessageSchema = z.object({
  type: z.literal("response"),
  /** The persona's whole reply; when it was interrupted, only the sentences spoken before. */
  text: z.string(),
  replyId: z.string().optional(),
  /** True when the reply was cut short by barge-in. */
  interrupted: z.boolean().optional(),
});

export const voiceAudioStartMessageSchema = z.object({
  type: z.literal("audio_start"),
  replyId: z.string(),
  /** MIME type of every binary frame of this reply: audio/mpeg (ElevenLabs) or audio/wav. */
  format: z.string(),
  /** Not known in advance while the reply streams: absent. */
  length: z.number().int().optional(),
});

export const voiceAudioCompleteMessageSchema = z.object({
  type: z.literal("audio_complete"),
  replyId: z.string(),
  /** How many binary frames (sentences) this reply sent. */
  segments: z.number().int(),
  /** True when barge-in cut the reply short. */
  interrupted: z.boolean().optional(),
});

export const voiceErrorMessageSchema = z.object({
  type: z.literal("error"),
  message: z.string(),
});

export const voiceCreditWarningMessageSchema = z.object({
  type: z.literal("credit_warning"),
  message: z.string(),
  creditsRemaining: z.number().int(),
});

export const voiceCallEndedMessageSchema = z.object({
  type: z.literal("call_ended"),
  message: z.string(),
  /** Not in the spec: why it ended. */
  reason: z.enum(["credits", "hangup", "replaced", "server", "closed", "session"]).optional(),
});

export const voiceCandidateHeardMessageSchema = z.object({
  /** Not in the spec: the candidate was transcribed (sent at once, even before its commit). */
  type: z.literal("candidate_heard"),
  candidateId: z.string(),
  /** The words so far end unfinished ("I was thinking about"): wait longer before committing. */
  unfinished: z.boolean(),
});

export const voiceNoticeMessageSchema = z.object({
  /**
   * Not in the spec (issue 25): a notice of the product, not a reply of the persona: the AI
   * notice at the start of the call and every 3 hours, with a break reminder after 3 hours of
   * continuous use. Shown as a caption; its speech (in the persona's voice) follows between
   * audio_start and audio_complete of the same `replyId`.
   */
  type: z.literal("notice"),
  kind: z.enum(PRODUCT_MESSAGE_KINDS),
  text: z.string(),
  replyId: z.string(),
});

export const voiceServerMessageSchema = z.discriminatedUnion("type", [
  voiceCallStartedMessageSchema,
  voiceTranscriptionMessageSchema,
  voiceResponseMessageSchema,
  voiceAudioStartMessageSchema,
  voiceAudioCompleteMessageSchema,
  voiceErrorMessageSchema,
  voiceCreditWarningMessageSchema,
  voiceCallEndedMessageSchema,
  voiceCandidateHeardMessageSchema,
  voiceNoticeMessageSchema,
]);
export type VoiceServerMessage = z.infer<typeof voiceServerMessageSchema>;

// ---- socket: client → server (JSON text frames) ----

/** A candidate's id, chosen by the client (unique within the call). */
export const voiceCandidateIdSchema = z.string().min(1).max(64);

export const voiceClientMessageSchema = z.discriminatedUnion("type", [
  /** Barge-in: stop the current reply (LLM stream and pending speech) on the server. */
  z.object({ type: z.literal("interrupt") }),
  /** Hang up: the call is closed and the socket closes with 1000. */
  z.object({ type: z.literal("end") }),
  /** The next binary frame is a candidate utterance: answer it, but hold the answer. */
  z.object({ type: z.literal("candidate"), candidateId: voiceCandidateIdSchema }),
  /** The candidate is the fan's turn: send its held answer now, and the rest as it comes. */
  z.object({ type: z.literal("commit"), candidateId: voiceCandidateIdSchema }),
  /**
   * The fan went on speaking: drop the candidate and the work on it (also just after its
   * commit: its answer is dropped and never stored).
   */
  z.object({ type: z.literal("cancel"), candidateId: voiceCandidateIdSchema }),
]);
export type VoiceClientMessage = z.infer<typeof voiceClientMessageSchema>;

// ---- REST ----

/** GET /api/voice-call/check-credits */
export const checkCreditsResponseSchema = z.object({
  success: z.literal(true),
  credits: z.number().int(),
  creditsPerMinute: z.number().int(),
  /** credits >= creditsPerMinute (and voice calls enabled). */
  hasCredits: z.boolean(),
  /** Not in the spec: false when enableVoiceConversation is off (site or AI profile). */
  voiceEnabled: z.boolean(),
});
export type CheckCreditsResponse = z.infer<typeof checkCreditsResponseSchema>;

// Text stored or sent to a provider: no NUL bytes, no lone surrogates.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const safeText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: "Text is required" })
    .max(max, { error: `Text cannot exceed ${max} characters` })
    .refine((value) => !value.includes("\u0000") && !LONE_SURROGATE.test(value), {
      error: "Text contains characters that are not allowed",
    });

/** POST /api/voice-call/process */
export const processTextRequestSchema = z.object({ text: safeText(VOICE_TEXT_MAX_CHARS) });
export const processTextResponseSchema = z.object({
  success: z.literal(true),
  response: z.string(),
});

/** POST /api/voice-call/synthesize: answers audio bytes (audio/mpeg or audio/wav). */
export const synthesizeRequestSchema = z.object({ text: safeText(VOICE_TEXT_MAX_CHARS) });

/** The spec's call record. */
export const voiceCallRecordSchema = z.object({
  _id: z.string(),
  createdAt: z.string(),
  /** Seconds. */
  duration: z.number().int(),
  startTime: z.string(),
  /** null while the call is live. */
  endTime: z.string().nullable(),
  creditsConsumed: z.number().int(),
});
export type VoiceCallRecord = z.infer<typeof voiceCallRecordSchema>;

/** The {id} of GET /api/voice-call/calls/{id}. */
export const callIdParamsSchema = z.object({ id: z.uuid({ error: "Invalid call id" }) });

/** One turn of a call's stored transcript, oldest first. */
export const callTranscriptTurnSchema = z.object({
  _id: z.string(),
  sender: z.enum(CHAT_SENDERS),
  /** Product messages only (the AI notice, a break reminder): which one. */
  productKind: z.enum(PRODUCT_MESSAGE_KINDS).nullable().optional(),
  content: z.string(),
  timestamp: z.string(),
});
export type CallTranscriptTurn = z.infer<typeof callTranscriptTurnSchema>;

/** GET /api/voice-call/calls/{id}: one of the fan's calls and its transcript (404 otherwise). */
export const callDetailResponseSchema = z.object({
  success: z.literal(true),
  call: voiceCallRecordSchema,
  transcript: z.array(callTranscriptTurnSchema),
});
export type CallDetailResponse = z.infer<typeof callDetailResponseSchema>;

/** Spec: call history page size 10. */
export const CALL_HISTORY_PAGE_SIZE = 10;

/** GET /api/voice-call/history?page&limit */
export const callHistoryQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(CALL_HISTORY_PAGE_SIZE),
});
export type CallHistoryQuery = z.infer<typeof callHistoryQuerySchema>;

export const callHistoryResponseSchema = z.object({
  success: z.literal(true),
  calls: z.array(voiceCallRecordSchema),
  pagination: paginationSchema,
});
export type CallHistoryResponse = z.infer<typeof callHistoryResponseSchema>;

/**
 * POST /api/voice-call/end {duration}: closes the user's live call, if any. The server's own
 * measure of the call wins (the client's duration is only recorded); retried, it changes nothing
 * and answers the same record.
 */
export const endCallRequestSchema = z.object({
  duration: z
    .number()
    .min(0)
    .max(7 * 24 * 3600),
});
export const endCallResponseSchema = z.object({
  success: z.literal(true),
  /** The call closed (now or by an earlier report); null when the user has no call. */
  call: voiceCallRecordSchema.nullable(),
});
