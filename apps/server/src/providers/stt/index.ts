export { createOfflineStt } from "./offline.ts";
export { createOpenAiStt, DEFAULT_STT_MODEL, fileNameFor, sniffAudioType } from "./openai.ts";
export {
  createPocketsphinxStt,
  DEFAULT_POCKETSPHINX_BIN,
  DEFAULT_POCKETSPHINX_MODEL_DIR,
  pocketsphinxInstalled,
} from "./pocketsphinx.ts";
export type { SttProvider, TranscribeRequest, Transcription } from "./types.ts";
