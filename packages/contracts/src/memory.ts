import { z } from "zod";

export const MEMORY_MESSAGES = {
  factNotFound: "Memory not found",
  updated: "Memory settings updated",
  deleted: "Memory deleted",
} as const;

/** One thing the fan told the persona about themselves (a chat message or a call turn). */
export const memoryFactSchema = z.object({
  _id: z.string(),
  content: z.string(),
  timestamp: z.string(),
  /** Told on this voice call; null when typed in the chat. */
  callId: z.string().nullable(),
});
export type MemoryFact = z.infer<typeof memoryFactSchema>;

/** GET /api/memory: what the persona remembers of the fan, and whether memory is on. */
export const memorySchema = z.object({
  enabled: z.boolean(),
  /** The running summary (kept only with an LLM key). */
  summary: z.object({ content: z.string(), updatedAt: z.string().nullable() }).nullable(),
  /** The newest facts first (at most 100). */
  facts: z.array(memoryFactSchema),
});
export type Memory = z.infer<typeof memorySchema>;
export const memoryResponseSchema = z.object({ success: z.literal(true), data: memorySchema });

/** PATCH /api/memory: turns memory on or off (effective at the next reply). */
export const updateMemoryRequestSchema = z.object({
  enabled: z.boolean({ error: "enabled must be true or false" }),
});
export type UpdateMemoryRequest = z.infer<typeof updateMemoryRequestSchema>;

/** The {id} of DELETE /api/memory/facts/{id}. */
export const memoryFactParamsSchema = z.object({ id: z.uuid({ error: "Invalid memory id" }) });

/** PATCH /api/memory, DELETE /api/memory/summary and DELETE /api/memory/facts/{id}. */
export const memoryChangedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});
