import { z } from "zod";
import { errorEnvelopeSchema } from "../api";
import { dailyLimitErrorSchema } from "../chat";
import {
  trialMessageRequestSchema,
  trialMessageResponseSchema,
  trialRefusalSchema,
  trialStateResponseSchema,
} from "../trial";
import { defineRoute } from "./define";

const tags = ["trial"];

/**
 * The anonymous trial's calls, no account (apps/server/src/modules/trial, decision 0084): the
 * landing page's trial chat uses them, and so can the embed page.
 */
export const trialRoutes = {
  state: defineRoute({
    method: "GET",
    path: "/api/trial",
    access: "public",
    tags,
    summary:
      "The anonymous trial: the allowance (0: off), what this device has left, its conversation",
    response: trialStateResponseSchema,
  }),
  message: defineRoute({
    method: "POST",
    path: "/api/trial/message",
    access: "public",
    kind: "stream",
    tags,
    summary:
      "Sends a visitor's message to the persona without an account. With Accept: " +
      "text/event-stream the reply streams as the member chat's does. Refused with `code`: " +
      "trial_off, trial_used (403), trial_address_limit, trial_global_limit (429).",
    body: trialMessageRequestSchema,
    response: trialMessageResponseSchema,
    otherResponses: {
      403: z.union([trialRefusalSchema, dailyLimitErrorSchema, errorEnvelopeSchema]),
      429: z.union([trialRefusalSchema, errorEnvelopeSchema]),
    },
    errors: [400, 502],
  }),
} as const;
