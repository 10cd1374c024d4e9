import { queryOptions } from "@tanstack/react-query";
import { routes, voiceSocketAddress } from "@twinline/contracts";
import { callRoute, getApiBaseUrl } from "@/lib/api-client";
import { getUserToken } from "@/lib/storage";

export const voiceCallKeys = {
  credits: ["voice-call", "check-credits"] as const,
};

/** routes.voice.checkCredits: credits, creditsPerMinute, hasCredits, voiceEnabled. */
export const checkCreditsQuery = () =>
  queryOptions({
    queryKey: voiceCallKeys.credits,
    queryFn: ({ signal }) => callRoute(routes.voice.checkCredits, { signal }),
    // Always asked afresh when the start screen opens: the balance moves with every call.
    staleTime: 0,
    retry: false,
  });

/** routes.voice.end {duration}: closes the call record (the retries are the caller's). */
export function endCall(duration: number) {
  return callRoute(routes.voice.end, { body: { duration } });
}

/**
 * The call socket's URL: the API host (or this page's) with ws(s)://, the user's Bearer token
 * and the CSRF token as query parameters (a browser cannot set headers on a WebSocket).
 */
export function voiceSocketUrl(csrf: string | null, location: Location = window.location): string {
  const base = getApiBaseUrl() || location.origin;
  const url = new URL(voiceSocketAddress.path, base);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("token", getUserToken() ?? "");
  if (csrf) url.searchParams.set("csrf", csrf);
  return url.toString();
}
