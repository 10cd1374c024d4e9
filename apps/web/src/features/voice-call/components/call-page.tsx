import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Coins, Phone, PhoneOff, RotateCw } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate } from "react-router";
import { AiMarker } from "@/components/ui/ai-marker";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/load-states";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { UserAvatar } from "@/components/ui/user-avatar";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { ApiError, handleUnauthorized, onUnauthorized } from "@/lib/api-client";
import { useSettings } from "@/lib/settings";
import { checkCreditsQuery, voiceCallKeys } from "../api/voice-call";
import { createUnlockedAudioContext } from "../audio/context";
import type { CallDeps } from "../call/call-session";
import { useCallSession } from "../hooks/use-call-session";
import { CALL_TEXT } from "../messages";
import { CallOverlay } from "./call-overlay";

export interface CallPageProps {
  /** Replaces the browser's devices (tests). */
  makeDeps?: (csrf: string | null, audio: AudioContext | null) => CallDeps;
}

/**
 * `/dashboard/call`: the persona, the credits (with refresh) and Start call; the call itself runs
 * in the full-screen overlay. A 401 on the credit check ends the session and goes to the login.
 */
export function CallPage({ makeDeps }: CallPageProps) {
  const { settings } = useSettings();
  const persona = settings.aiProfile;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const credits = useQuery(checkCreditsQuery());
  const call = useCallSession(makeDeps);

  useDocumentTitle("Call · Twinline");

  // A 401 anywhere on this page (the credit check, the end report, the call's socket refusing
  // the token): the spec's message, then the login page. The listener runs as the API client
  // clears the session, before the dashboard's guard would send the fan to `/` without a word.
  const expired = credits.error instanceof ApiError && credits.error.status === 401;
  useEffect(
    () =>
      onUnauthorized(() => {
        toast.error(CALL_TEXT.sessionExpired, { id: "session-expired" });
        navigate("/auth", { replace: true });
      }),
    [navigate],
  );
  const socketRefused =
    call.state.status === "error" && call.state.error === CALL_TEXT.sessionExpired;
  useEffect(() => {
    if (socketRefused) handleUnauthorized();
  }, [socketRefused]);

  const voiceEnabled =
    settings.enableVoiceConversation &&
    persona.enableVoiceConversation &&
    credits.data?.voiceEnabled !== false;
  const data = credits.data;
  const [starting, setStarting] = useState(false);
  const canStart = voiceEnabled && data?.hasCredits === true && !call.open && !starting;

  const onStart = async () => {
    // First, while the click still counts as a user gesture: audio may only start from one.
    const audio = createUnlockedAudioContext();
    let placed = false;
    setStarting(true);
    try {
      // The balance may have moved since the screen opened.
      const answer = (await credits.refetch()).data;
      if (!answer?.voiceEnabled) return;
      if (!answer.hasCredits) {
        toast.error(CALL_TEXT.notEnoughCredits);
        return;
      }
      placed = true;
      await call.start(audio);
    } finally {
      if (!placed) void audio?.close().catch(() => undefined);
      setStarting(false);
    }
  };

  const onClose = () => {
    call.close();
    void queryClient.invalidateQueries({ queryKey: voiceCallKeys.credits });
  };

  // Once the overlay is gone (and the page behind it no longer inert), focus goes back to Start
  // call, which opened it; left alone, it fell to the body with the overlay's Close button.
  const startRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !call.open) startRef.current?.focus();
    wasOpen.current = call.open;
  }, [call.open]);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Call"
        description={`Talk live with ${persona.name}. Calls are charged per started minute.`}
      />

      <Card className="mx-auto max-w-xl p-5 sm:p-8">
        <div className="flex flex-col items-center gap-4 text-center">
          <UserAvatar name={persona.name} image={persona.aiProfileImage} size="lg" />
          <div>
            <div className="flex items-center justify-center">
              <h2 className="font-display text-xl font-bold text-stone-900 dark:text-white">
                {persona.name}
              </h2>
              <AiMarker />
            </div>
            <p className="text-sm text-stone-600 dark:text-stone-400">Voice call</p>
          </div>

          <CreditsPanel
            pending={credits.isPending}
            fetching={credits.isFetching}
            credits={data?.credits}
            creditsPerMinute={data?.creditsPerMinute}
            onRefresh={() => void credits.refetch()}
          />

          {credits.isError && !expired ? (
            <ErrorState
              layout="compact"
              message={CALL_TEXT.checkCreditsFailed}
              onRetry={() => void credits.refetch()}
            />
          ) : !voiceEnabled ? (
            <p
              role="alert"
              className="rounded-2xl bg-stone-100 px-4 py-3 text-sm text-stone-700 dark:bg-white/5 dark:text-stone-300"
            >
              <PhoneOff aria-hidden="true" className="mr-2 inline size-4" />
              {CALL_TEXT.voiceDisabled}
            </p>
          ) : data && !data.hasCredits ? (
            <div
              role="alert"
              className="w-full rounded-2xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-200"
            >
              <p className="font-semibold">{CALL_TEXT.notEnoughCredits}</p>
              <p className="mt-1">{CALL_TEXT.needCredits(data.creditsPerMinute, data.credits)}</p>
              <Link to="/dashboard/credits" className={buttonClasses("secondary", "sm", "mt-3")}>
                Buy credits
              </Link>
            </div>
          ) : null}

          <button
            ref={startRef}
            type="button"
            onClick={() => void onStart()}
            disabled={!canStart}
            className={buttonClasses("primary", "lg", "w-full sm:w-auto")}
          >
            <Phone aria-hidden="true" className="size-5" />
            Start call
          </button>
          <p className="text-xs text-stone-500 dark:text-stone-400">
            Your browser will ask for the microphone. Speak naturally; pause and {persona.name}{" "}
            answers.
          </p>
        </div>
      </Card>

      {call.open && (
        <CallOverlay
          state={call.state}
          personaName={persona.name}
          personaImage={persona.aiProfileImage}
          onHangUp={call.hangUp}
          onToggleMute={call.toggleMute}
          onBargeInChange={call.setBargeIn}
          onClose={onClose}
        />
      )}
    </div>
  );
}

function CreditsPanel({
  pending,
  fetching,
  credits,
  creditsPerMinute,
  onRefresh,
}: {
  pending: boolean;
  fetching: boolean;
  credits?: number;
  creditsPerMinute?: number;
  onRefresh: () => void;
}) {
  return (
    <div className="flex w-full items-center justify-between gap-3 rounded-2xl bg-stone-50 px-4 py-3 dark:bg-white/5">
      <div className="flex items-center gap-3 text-left">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-2xl bg-amber-100 text-amber-700 dark:bg-amber-500/15 dark:text-amber-300">
          <Coins aria-hidden="true" className="size-5" />
        </span>
        <div>
          <p className="text-sm text-stone-600 dark:text-stone-400">Your credits</p>
          {pending ? (
            <Skeleton className="mt-1 h-5 w-24" />
          ) : (
            <p className="font-semibold text-stone-900 dark:text-white" data-testid="call-credits">
              {credits ?? "–"} credits
              {creditsPerMinute ? (
                <span className="font-normal text-stone-600 dark:text-stone-400">
                  {" "}
                  · {creditsPerMinute} per minute
                </span>
              ) : null}
            </p>
          )}
        </div>
      </div>
      <button
        type="button"
        onClick={onRefresh}
        disabled={fetching}
        aria-label="Refresh credits"
        title="Refresh credits"
        className={buttonClasses("ghost", "sm", "px-2.5")}
      >
        <RotateCw aria-hidden="true" className={fetching ? "size-4 animate-spin" : "size-4"} />
      </button>
    </div>
  );
}
