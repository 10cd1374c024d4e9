import { VOICE_MESSAGES } from "@twinline/contracts";
import type { UserRow } from "../../../db/schema/index.ts";
import { pagination } from "../../../lib/paging.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { checkCredits, nowOf, spend, type VoiceDeps } from "./deps.ts";
import { toCallRecord, toTranscriptTurn } from "./records.ts";

/**
 * What POST synthesize and process need: voice on and credits for a minute (the rule of
 * check-credits), then room under the user's daily cap; else 403, 402 or 429.
 */
async function assertVoiceAccess(deps: VoiceDeps, user: UserRow): Promise<void> {
  const access = await checkCredits(deps, user);
  if (!access.voiceEnabled) throw new HttpError(403, VOICE_MESSAGES.voiceDisabled);
  if (!access.hasCredits) throw new HttpError(402, VOICE_MESSAGES.insufficientCredits);
}

/** The persona's answer to a fan's words outside a call, within their daily cap. */
export async function processText(
  deps: VoiceDeps,
  user: UserRow,
  text: string,
  signal: AbortSignal,
): Promise<string> {
  await assertVoiceAccess(deps, user);
  // The crisis check before the model: the caring message, and no LLM call to pay for.
  const crisis = deps.crisis;
  if (crisis && (await crisis.check(text, signal))) return crisis.spokenMessage();
  await spend(deps, user, { llmCalls: 1 });
  let answer: string;
  try {
    answer = await deps.engine.answer(text, signal);
    if (!answer) throw new Error("empty reply");
  } catch (error) {
    deps.log.error({ err: error }, "Voice process failed");
    throw new HttpError(502, VOICE_MESSAGES.processFailed);
  }
  // With a key, a reply giving self-harm instructions is never handed on: the caring
  // message takes its place, as in the chat (decision 0060).
  if (crisis && (await crisis.checkReply(answer, signal))) return crisis.spokenMessage();
  return answer;
}

/** `text` in the persona's voice outside a call, within the fan's daily cap. */
export async function synthesize(
  deps: VoiceDeps,
  user: UserRow,
  text: string,
  signal: AbortSignal,
) {
  await assertVoiceAccess(deps, user);
  await spend(deps, user, { synthesizedCharacters: text.length });
  try {
    return await deps.engine.speak(text, await deps.repository.voiceId(), signal);
  } catch (error) {
    deps.log.error({ err: error }, "Voice synthesis failed");
    throw new HttpError(502, VOICE_MESSAGES.synthesizeFailed);
  }
}

export async function callHistory(
  deps: VoiceDeps,
  user: UserRow,
  page: { page: number; limit: number },
) {
  const { rows, total } = await deps.repository.history(user.id, page);
  return {
    calls: rows.map((row) => toCallRecord(row, nowOf(deps))),
    pagination: pagination(total, page),
  };
}

/** One of the fan's calls and its transcript; another fan's (or none): 404. */
export async function callDetail(deps: VoiceDeps, user: UserRow, callId: string) {
  const row = await deps.repository.findCall(callId);
  if (!row || row.userId !== user.id) throw new HttpError(404, VOICE_MESSAGES.callNotFound);
  const transcript = await deps.turns.callTranscript(callId);
  return {
    call: toCallRecord(row, nowOf(deps)),
    transcript: transcript.map(toTranscriptTurn),
  };
}
