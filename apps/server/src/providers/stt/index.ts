export { createOfflineStt } from "./offline.ts";
export { createOpenAiStt, DEFAULT_STT_MODEL, fileNameFor, sniffAudioType } from "./openai.ts";
export type { SttProvider, TranscribeRequest, Transcription } from "./types.ts";
