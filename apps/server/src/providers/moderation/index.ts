export { detectCrisis } from "./crisis-phrases.ts";
export { createOfflineModeration } from "./offline.ts";
export { createOpenAiModeration, MODERATION_MODEL } from "./openai.ts";
export type {
  CrisisCategory,
  CrisisVerdict,
  ModerationProvider,
  ModerationRequest,
} from "./types.ts";
