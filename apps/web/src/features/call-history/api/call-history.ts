import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { type CallHistoryQuery, routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { callRoute } from "@/lib/api-client";

export const CALL_HISTORY_TEXT = {
  failedFetch: "Failed to fetch call history",
  failedInline: "Unable to load call history. Please try again later.",
  failedTranscript: "Failed to load the call's transcript",
  noTranscript:
    "Nothing was said on this call, or its transcript was cleared with the chat history.",
} as const;

/** routes.voice.history ?page&limit (calls, pagination). */
export const callHistoryQuery = (params: CallHistoryQuery) =>
  queryOptions({
    queryKey: ["voice-call", "history", params.page, params.limit] as const,
    queryFn: async ({ signal }) => {
      try {
        return await callRoute(routes.voice.history, {
          signal,
          query: { page: params.page, limit: params.limit },
        });
      } catch (error) {
        if (!signal.aborted) toast.error(CALL_HISTORY_TEXT.failedFetch, { id: "call-history" });
        throw error;
      }
    },
    placeholderData: keepPreviousData,
  });

/** routes.voice.call: the call and its stored transcript (loaded when opened). */
export const callDetailQuery = (callId: string) =>
  queryOptions({
    queryKey: ["voice-call", "call", callId] as const,
    queryFn: ({ signal }) => callRoute(routes.voice.call, { signal, params: { id: callId } }),
  });
