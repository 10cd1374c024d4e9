import { queryOptions } from "@tanstack/react-query";
import { checkCreditsResponseSchema, endCallResponseSchema } from "@twinline/contracts";
import { api, getApiBaseUrl } from "@/lib/api-client";
import { getUserToken } from "@/lib/storage";

export const voiceCallKeys = {
  credits: ["voice-call", "check-credits"] as const,
};

/** GET /api/voice-call/check-credits: credits, creditsPerMinute, hasCredits, voiceEnabled. */
export const checkCreditsQuery = () =>
  queryOptions({
    queryKey: voiceCallKeys.credits,
    queryFn: ({ signal }) =>
      api.get("/api/voice-call/check-credits", { signal, schema: checkCreditsResponseSchema }),
    // Always asked afresh when the start screen opens: the balance moves with every call.
    staleTime: 0,
    retry: false,
  });

/** POST /api/voice-call/end {duration}: closes the call record (the retries are the caller's). */
export function endCall(duration: number) {
  return api.post("/api/voice-call/end", { duration }, { schema: endCallResponseSchema });
}

/**
 * The call socket's URL: the API host (or this page's) with ws(s)://, the user's Bearer token
 * and the CSRF token as query parameters (a browser cannot set headers on a WebSocket).
 */
export function voiceSocketUrl(csrf: string | null, location: Location = window.location): string {
  const base = getApiBaseUrl() || location.origin;
  const url = new URL("/api/voice-call/ws", base);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("token", getUserToken() ?? "");
  if (csrf) url.searchParams.set("csrf", csrf);
  return url.toString();
}
