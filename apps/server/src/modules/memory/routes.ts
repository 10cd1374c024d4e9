import { MEMORY_MESSAGES, type Memory, routes } from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth.ts";
import { registerRoute } from "../../plugins/routes.ts";
import type { MemoryView } from "./repository.ts";
import type { MemoryService } from "./service.ts";

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

/** The fan's control over what the persona remembers (routes.memory: requireUser from access). */
export const memoryRoutes: FastifyPluginAsyncZod<{ memory: MemoryService }> = async (
  app,
  { memory },
) => {
  registerRoute(app, routes.memory.view, async (request) => ({
    success: true as const,
    data: toMemory(await memory.view(currentUser(request).id)),
  }));

  registerRoute(app, routes.memory.setEnabled, async (request) => {
    await memory.setEnabled(currentUser(request).id, request.body.enabled);
    return { success: true as const, message: MEMORY_MESSAGES.updated };
  });

  registerRoute(app, routes.memory.deleteSummary, async (request) => {
    await memory.deleteSummary(currentUser(request).id);
    return { success: true as const, message: MEMORY_MESSAGES.deleted };
  });

  registerRoute(app, routes.memory.forgetFact, async (request) => {
    await memory.forget(currentUser(request).id, request.params.id);
    return { success: true as const, message: MEMORY_MESSAGES.deleted };
  });
};
