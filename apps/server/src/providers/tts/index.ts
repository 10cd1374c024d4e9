export {
  createElevenLabsClient,
  createElevenLabsTts,
  type ElevenLabsOptions,
} from "./elevenlabs.ts";
export { CLONE_NEEDS_ELEVENLABS, createOfflineTts, OFFLINE_VOICE } from "./offline.ts";
export type { LocalFile, TtsProvider, VoiceSummary } from "./types.ts";
