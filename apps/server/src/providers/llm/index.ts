export { createOfflineLlm, OFFLINE_MODEL, offlineAnswer } from "./offline.ts";
export { createOpenAiClient, createOpenAiLlm, DEFAULT_OPENAI_MODEL } from "./openai.ts";
export { composeSystemPrompt, parseSystemPrompt, type SystemPromptParts } from "./system-prompt.ts";
export type { ChatTurn, LlmProvider, StreamChatRequest } from "./types.ts";
