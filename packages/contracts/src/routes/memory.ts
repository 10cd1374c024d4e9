import {
  memoryChangedResponseSchema,
  memoryFactParamsSchema,
  memoryResponseSchema,
  updateMemoryRequestSchema,
} from "../memory";
import { defineRoute } from "./define";

const tags = ["memory"];
const errors = [400, 401, 403, 404];

/** The fan's control over what the persona remembers (apps/server/src/modules/memory). */
export const memoryRoutes = {
  view: defineRoute({
    method: "GET",
    path: "/api/memory",
    access: "fan",
    tags,
    summary: "What the persona remembers of the fan: the summary, the facts, the switch",
    response: memoryResponseSchema,
    errors,
  }),
  setEnabled: defineRoute({
    method: "PATCH",
    path: "/api/memory",
    access: "fan",
    tags,
    summary: "Turns memory on or off (effective at the next reply)",
    body: updateMemoryRequestSchema,
    response: memoryChangedResponseSchema,
    errors,
  }),
  deleteSummary: defineRoute({
    method: "DELETE",
    path: "/api/memory/summary",
    access: "fan",
    tags,
    summary: "Deletes the persona's summary of the fan",
    response: memoryChangedResponseSchema,
    errors,
  }),
  forgetFact: defineRoute({
    method: "DELETE",
    path: "/api/memory/facts/:id",
    access: "fan",
    tags,
    summary: "Forgets one thing the fan told: it never reaches a prompt again",
    params: memoryFactParamsSchema,
    response: memoryChangedResponseSchema,
    errors,
  }),
} as const;
