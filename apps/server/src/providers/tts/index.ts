export {
  createElevenLabsClient,
  createElevenLabsTts,
  DEFAULT_ELEVENLABS_VOICE_ID,
  type ElevenLabsOptions,
} from "./elevenlabs.ts";
export { CLONE_NEEDS_ELEVENLABS, createOfflineTts, OFFLINE_VOICE } from "./offline.ts";
export type {
  LocalFile,
  SynthesizedAudio,
  SynthesizeRequest,
  TtsProvider,
  VoiceSummary,
} from "./types.ts";
