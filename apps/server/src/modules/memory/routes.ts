import {
  MEMORY_MESSAGES,
  type Memory,
  memoryChangedResponseSchema,
  memoryFactParamsSchema,
  memoryResponseSchema,
  updateMemoryRequestSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import type { MemoryView } from "./repository.ts";
import type { MemoryService } from "./service.ts";

const errors = errorResponses(400, 401, 403, 404);
const tags = ["memory"];
const security = bearerSecurity;

function toMemory(view: MemoryView): Memory {
  return {
    enabled: view.enabled,
    summary: view.summary
      ? { content: view.summary, updatedAt: view.summaryUpdatedAt?.toISOString() ?? null }
      : null,
    facts: view.facts.map((fact) => ({
      _id: fact.id,
      content: fact.content,
      timestamp: fact.createdAt.toISOString(),
      callId: fact.callId,
    })),
  };
}

/** The fan's control over what the persona remembers, behind requireUser. */
export const memoryRoutes: FastifyPluginAsyncZod<{ memory: MemoryService }> = async (
  app,
  { memory },
) => {
  app.addHook("onRequest", app.requireUser);

  app.get(
    "/api/memory",
    {
      schema: {
        tags,
        security,
        summary: "What the persona remembers of the fan: the summary, the facts, the switch",
        response: { 200: memoryResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: toMemory(await memory.view(currentUser(request).id)),
    }),
  );

  app.patch(
    "/api/memory",
    {
      schema: {
        tags,
        security,
        summary: "Turns memory on or off (effective at the next reply)",
        body: updateMemoryRequestSchema,
        response: { 200: memoryChangedResponseSchema, ...errors },
      },
    },
    async (request) => {
      await memory.setEnabled(currentUser(request).id, request.body.enabled);
      return { success: true as const, message: MEMORY_MESSAGES.updated };
    },
  );

  app.delete(
    "/api/memory/summary",
    {
      schema: {
        tags,
        security,
        summary: "Deletes the persona's summary of the fan",
        response: { 200: memoryChangedResponseSchema, ...errors },
      },
    },
    async (request) => {
      await memory.deleteSummary(currentUser(request).id);
      return { success: true as const, message: MEMORY_MESSAGES.deleted };
    },
  );

  app.delete(
    "/api/memory/facts/:id",
    {
      schema: {
        tags,
        security,
        summary: "Forgets one thing the fan told: it never reaches a prompt again",
        params: memoryFactParamsSchema,
        response: { 200: memoryChangedResponseSchema, ...errors },
      },
    },
    async (request) => {
      await memory.forget(currentUser(request).id, request.params.id);
      return { success: true as const, message: MEMORY_MESSAGES.deleted };
    },
  );
};
