import { VOICE_CLOSE_CODES, VOICE_MESSAGES, type VoiceCallRecord } from "@twinline/contracts";
import type { UserRow } from "../../../db/schema/index.ts";
import type { SessionEnd } from "../../../db/session-events.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { ABANDONED_GRACE_MS, nowOf, type VoiceDeps } from "./deps.ts";
import { toCallRecord } from "./records.ts";

/**
 * The end route: closes the user's live call (here, or on another instance through the
 * database), or answers the call closed already: a retry changes nothing.
 */
export async function endCall(
  deps: VoiceDeps,
  user: UserRow,
  reportedDurationSeconds: number,
): Promise<VoiceCallRecord | null> {
  const { repository } = deps;
  const here = deps.calls.live.get(user.id);
  if (here) {
    const row = await here.end("hangup", {
      message: VOICE_MESSAGES.callEnded,
      reason: "hangup",
      reportedDurationSeconds,
    });
    if (row) return toCallRecord(row, nowOf(deps));
  }
  const closed = await repository.closeOpenCallOf(
    user.id,
    "hangup",
    new Date(nowOf(deps)),
    reportedDurationSeconds,
  );
  if (closed) return toCallRecord(closed, nowOf(deps));
  const latest = await repository.latestCall(user.id);
  if (!latest) return null;
  if (latest.reportedDurationSeconds === null) {
    await repository.noteReportedDuration(latest.id, reportedDurationSeconds);
  }
  return toCallRecord(latest, nowOf(deps));
}

/**
 * A session ended (logout, password change or reset, deactivation; heard from any
 * instance): the live call it opened ends now, with 4401. Without `end` (notifications may
 * have been missed), every live call's session is checked.
 */
export async function sessionEnded(deps: VoiceDeps, end?: SessionEnd): Promise<void> {
  const calls = [...deps.calls.live.values()].filter(
    (call) =>
      !end || ("userId" in end ? call.row.userId === end.userId : call.session.jti === end.jti),
  );
  await Promise.all(
    calls.map(async (call) => {
      try {
        await deps.authenticate(call.session.token);
        return;
      } catch (error) {
        if (!(error instanceof HttpError) || error.statusCode !== 401) {
          deps.log.warn({ err: error, callId: call.row.id }, "Could not check a call's session");
          return;
        }
      }
      await call.end("session", {
        message: VOICE_MESSAGES.unauthorized,
        reason: "session",
        code: VOICE_CLOSE_CODES.sessionEnded,
      });
    }),
  );
}

/**
 * The account is being deleted (already deactivated): its live call ends now, here with
 * 4401 and reason `session`, or in the database when another instance holds it (that one
 * hears the close and drops its socket). The record is closed once, metered as it stood.
 */
export async function endCallOf(deps: VoiceDeps, userId: string): Promise<void> {
  const here = deps.calls.live.get(userId);
  if (here && !here.ended) {
    await here.end("session", {
      message: VOICE_MESSAGES.unauthorized,
      reason: "session",
      code: VOICE_CLOSE_CODES.sessionEnded,
    });
  }
  await deps.repository.closeOpenCallOf(userId, "session", new Date(nowOf(deps)));
}

/** A call was closed in the database by another instance (replaced, the end route there). */
export async function closedElsewhere(deps: VoiceDeps, callId: string): Promise<void> {
  const call = [...deps.calls.live.values()].find((candidate) => candidate.row.id === callId);
  if (!call || call.ended) return;
  const row = await deps.repository.findCall(callId);
  if (!row?.endedAt) return;
  const replaced = row.endReason === "replaced";
  await call.end(row.endReason ?? "hangup", {
    message: replaced ? VOICE_MESSAGES.replaced : VOICE_MESSAGES.callEnded,
    reason: replaced ? "replaced" : "closed",
    closedInDatabase: true,
  });
}

/** Closes calls a stopped server left open (at boot, then every minute). */
export async function closeAbandoned(deps: VoiceDeps): Promise<number> {
  const closed = await deps.repository.closeAbandoned(
    new Date(nowOf(deps)),
    ABANDONED_GRACE_MS,
    [...deps.calls.live.values()].map((call) => call.row.id),
  );
  if (closed.length > 0) deps.log.info({ calls: closed.length }, "Closed abandoned voice calls");
  return closed.length;
}

/**
 * Shutdown: no call starts any more; every live call hears the restart message and its
 * record is closed (the writes finish before the database closes).
 */
export async function shutdown(deps: VoiceDeps): Promise<void> {
  deps.calls.closing = true;
  await Promise.all(
    [...deps.calls.live.values()].map((call) =>
      call.end("server", {
        message: VOICE_MESSAGES.serverClosing,
        reason: "server",
        code: VOICE_CLOSE_CODES.serverRestart,
      }),
    ),
  );
}
