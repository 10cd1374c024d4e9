import type { PublicSettings, VoiceCallRecord } from "@twinline/contracts";
import type { ChatMessageRow } from "../../../db/schema/index.ts";
import type { VoiceCallRow } from "../repository.ts";

export function voiceEnabled(settings: PublicSettings): boolean {
  return settings.enableVoiceConversation && settings.aiProfile.enableVoiceConversation;
}

/** A call as the fan's history shows it; a live call's duration runs up to `now`. */
export function toCallRecord(row: VoiceCallRow, now: number): VoiceCallRecord {
  const live = row.endedAt === null;
  return {
    _id: row.id,
    createdAt: row.createdAt.toISOString(),
    duration: live
      ? Math.max(0, Math.round((now - row.startedAt.getTime()) / 1000))
      : row.durationSeconds,
    startTime: row.startedAt.toISOString(),
    endTime: row.endedAt ? row.endedAt.toISOString() : null,
    creditsConsumed: row.creditsConsumed,
  };
}

/** A turn of a call's transcript as the fan's call detail shows it. */
export function toTranscriptTurn(turn: ChatMessageRow) {
  return {
    _id: turn.id,
    sender: turn.sender,
    ...(turn.productKind ? { productKind: turn.productKind } : {}),
    content: turn.content,
    timestamp: turn.createdAt.toISOString(),
  };
}
