import {
  callDetailResponseSchema,
  callHistoryQuerySchema,
  callHistoryResponseSchema,
  callIdParamsSchema,
  checkCreditsResponseSchema,
  endCallRequestSchema,
  endCallResponseSchema,
  processTextRequestSchema,
  processTextResponseSchema,
  synthesizeRequestSchema,
} from "../voice";
import type { RouteAddress } from "./define";
import { defineRoute } from "./define";
import { fileAnswerSchema } from "./files";

const tags = ["voice"];
const errors = [400, 401, 403];
const spendErrors = [400, 401, 402, 403, 429, 502];

/** The voice call's REST routes (user-side spec section 7; apps/server/src/modules/voice). */
export const voiceRoutes = {
  checkCredits: defineRoute({
    method: "GET",
    path: "/api/voice-call/check-credits",
    access: "fan",
    tags,
    summary: "The user's credits, the rate per minute, and whether a call can start",
    response: checkCreditsResponseSchema,
    errors,
  }),
  process: defineRoute({
    method: "POST",
    path: "/api/voice-call/process",
    access: "fan",
    tags,
    summary: "The persona's reply to a text, by the call's LLM path",
    body: processTextRequestSchema,
    response: processTextResponseSchema,
    errors: spendErrors,
  }),
  synthesize: defineRoute({
    method: "POST",
    path: "/api/voice-call/synthesize",
    access: "fan",
    kind: "file",
    tags,
    summary: "A text spoken in the persona's voice: audio bytes (audio/mpeg or audio/wav)",
    body: synthesizeRequestSchema,
    response: fileAnswerSchema,
    errors: spendErrors,
  }),
  history: defineRoute({
    method: "GET",
    path: "/api/voice-call/history",
    access: "fan",
    tags,
    summary: "The user's calls, newest first",
    query: callHistoryQuerySchema,
    response: callHistoryResponseSchema,
    errors,
  }),
  call: defineRoute({
    method: "GET",
    path: "/api/voice-call/calls/:id",
    access: "fan",
    tags,
    summary: "One of the user's calls and its stored transcript",
    params: callIdParamsSchema,
    response: callDetailResponseSchema,
    errors: [...errors, 404],
  }),
  end: defineRoute({
    method: "POST",
    path: "/api/voice-call/end",
    access: "fan",
    tags,
    summary:
      "Closes the user's call with the reported duration (the server's measure is billed); " +
      "a retry answers the same record",
    body: endCallRequestSchema,
    response: endCallResponseSchema,
    errors,
  }),
} as const;

/**
 * The live call's WebSocket: an upgrade of a GET, signed in by the token in its query, not an
 * HTTP route of the table (no answer schema, no OpenAPI entry), so an address only. The server
 * listens on its path, the web opens it, and a crisis referral of a call names it as origin.
 */
export const voiceSocketAddress = {
  method: "GET",
  path: "/api/voice-call/ws",
  access: "fan",
} as const satisfies RouteAddress;
