import { type PublicSettings, VOICE_CLOSE_CODES, VOICE_MESSAGES } from "@twinline/contracts";
import type { UserRow } from "../../../db/schema/index.ts";
import { ageRefusal } from "../../../lib/age-gate.ts";
import { rememberingEngine } from "../engine.ts";
import type { VoiceCallRow } from "../repository.ts";
import { cappedEngine } from "../spend.ts";
import { ABANDONED_GRACE_MS, nowOf, spend, type VoiceDeps } from "./deps.ts";
import { type CallSession, type CallSocket, LiveCall } from "./live-call.ts";
import { voiceEnabled } from "./records.ts";

export type OpenOutcome =
  | { kind: "open"; call: LiveCall }
  | { kind: "refused"; message: string; code: number };

type Refused = Extract<OpenOutcome, { kind: "refused" }>;

const refused = (message: string, code: number): Refused => ({ kind: "refused", message, code });

/**
 * Why this fan may not call at all now, or null: an account made before sign-up asked gives
 * its date of birth first (decision 0054), one under the minimum age is refused, and no one
 * calls while voice is off.
 */
export function callRefusal(
  user: Pick<UserRow, "dateOfBirth">,
  current: PublicSettings,
  now: Date,
): Refused | null {
  const refusal = ageRefusal(user.dateOfBirth, current.minimumAge, now);
  if (refusal) {
    return refused(
      refusal.message,
      refusal.statusCode === 428
        ? VOICE_CLOSE_CODES.dateOfBirthRequired
        : VOICE_CLOSE_CODES.underAge,
    );
  }
  if (!voiceEnabled(current)) {
    return refused(VOICE_MESSAGES.voiceDisabled, VOICE_CLOSE_CODES.voiceDisabled);
  }
  return null;
}

/**
 * Starts a call for `user` on `socket`: refused when voice is off, the credits do not pay a
 * minute, or the user has a live call already (one per fan, decided by the database, so on
 * every instance; nothing is charged); else the first minute is charged and metering starts.
 * A socket of the user's dropped call on this instance takes that call up again; `resume`,
 * a reconnecting client's call id: that call goes on, or nothing starts.
 */
export async function openCall(
  deps: VoiceDeps,
  user: UserRow,
  socket: CallSocket,
  session: CallSession,
  resume?: string,
): Promise<OpenOutcome> {
  const { repository, engine, calls } = deps;
  const restarting = refused(VOICE_MESSAGES.serverClosing, VOICE_CLOSE_CODES.serverRestart);
  if (calls.closing) return restarting;
  const current = await deps.settings.get();
  const refusal = callRefusal(user, current, new Date());
  if (refusal) return refusal;
  const rate = current.creditsPerMinute;
  const insufficient = refused(
    VOICE_MESSAGES.insufficientCredits,
    VOICE_CLOSE_CODES.insufficientCredits,
  );
  // A reconnection within the grace after a drop: the same call and minute go on. A client
  // that names the call it resumes takes it over even before its old socket was seen to
  // drop, and never gets a new call (nor a new minute charged) when it is gone.
  const dropped = calls.live.get(user.id);
  const resumable =
    dropped !== undefined &&
    !dropped.ended &&
    (resume === undefined ? dropped.detached : dropped.row.id === resume);
  if (resume !== undefined && !resumable) {
    return refused(VOICE_MESSAGES.connectionLost, VOICE_CLOSE_CODES.notResumable);
  }
  if (dropped && resumable) return resumeCall(deps, dropped, user, socket, session);
  if (user.credits < rate) return insufficient;
  // A call of the user still closing here (a hang-up, then a redial at once): its record
  // closes first, so the new call is not refused as a second one.
  const leaving = calls.ending.get(user.id);
  if (leaving) await leaving.end("hangup");
  const [started, voiceId] = await Promise.all([
    repository.startCall({
      userId: user.id,
      now: () => new Date(nowOf(deps)),
      creditsPerMinute: rate,
      abandonedGraceMs: ABANDONED_GRACE_MS,
    }),
    repository.voiceId(),
  ]);
  if (started.kind === "insufficient") return insufficient;
  if (started.kind === "busy") {
    return refused(VOICE_MESSAGES.callInProgress, VOICE_CLOSE_CODES.callInProgress);
  }
  if (calls.closing) {
    await repository.closeCall(started.call.id, "server", new Date(nowOf(deps)));
    return restarting;
  }
  const call = liveCallFor(deps, user, started.call, socket, session, voiceId);
  calls.live.set(user.id, call);
  const [sayNotices, { stt, tts }] = await Promise.all([call.openNotices(), engine.modes()]);
  socket.sendJson({
    type: "call_started",
    callId: started.call.id,
    creditsPerMinute: rate,
    creditsRemaining: started.balance,
    stt,
    tts,
  });
  sayNotices();
  call.meter.start(started.balance);
  return { kind: "open", call };
}

/** A reconnecting socket takes the user's dropped call over: the same call and minute go on. */
async function resumeCall(
  deps: VoiceDeps,
  dropped: LiveCall,
  user: UserRow,
  socket: CallSocket,
  session: CallSession,
): Promise<OpenOutcome> {
  dropped.resume(socket, session);
  const { stt, tts } = await deps.engine.modes();
  socket.sendJson({
    type: "call_started",
    callId: dropped.row.id,
    creditsPerMinute: dropped.row.creditsPerMinute,
    creditsRemaining: user.credits,
    stt,
    tts,
    resumed: true,
  });
  return { kind: "open", call: dropped };
}

/**
 * The live call of a started record: the engine behind the fan's caps, the turns stored in
 * their conversation, and, once it ends, moved from the live calls to the ending ones.
 */
function liveCallFor(
  deps: VoiceDeps,
  user: UserRow,
  call: VoiceCallRow,
  socket: CallSocket,
  session: CallSession,
  voiceId: string | null,
): LiveCall {
  const { repository, engine, calls } = deps;
  return new LiveCall(call, socket, session, {
    repository,
    // Every provider request of the call passes the user's rate and daily caps.
    engine: cappedEngine(
      deps.memory ? rememberingEngine(engine, user.id, deps.memory, deps.log) : engine,
      {
        utterance: () => deps.utteranceAllowed(user.id),
        daily: (amount) => spend(deps, user, amount),
        giveBack: (day, amount) => repository.giveBackDailyUsage(user.id, day, amount),
      },
    ),
    clock: deps.clock,
    log: deps.log,
    voiceId,
    turns: deps.turns,
    ...(deps.onTurn ? { onTurn: deps.onTurn } : {}),
    ...(deps.crisis ? { crisis: deps.crisis } : {}),
    ...(deps.notices
      ? {
          notices: deps.notices,
          // The engine without the caps: the notice is the product's, never refused.
          speakNotice: (text: string, signal: AbortSignal) => engine.speak(text, voiceId, signal),
        }
      : {}),
    onEnded: (ended) => {
      if (calls.live.get(user.id) === ended) calls.live.delete(user.id);
      calls.ending.set(user.id, ended);
      // Forgotten once closed (a microtask later, `end` answers the ending under way).
      queueMicrotask(() => {
        void ended.end("hangup").finally(() => {
          if (calls.ending.get(user.id) === ended) calls.ending.delete(user.id);
        });
      });
    },
  });
}
