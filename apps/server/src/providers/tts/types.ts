export interface VoiceSummary {
  voice_id: string;
  name: string;
}

/** A file on local disk handed to a provider (the stored voice sample). */
export interface LocalFile {
  path: string;
  filename: string;
  contentType: string;
}

/**
 * Text to speech and voice cloning. The voice-call issue adds `synthesize` here; the offline
 * implementation is the WASM speech synthesiser then.
 */
export interface TtsProvider {
  readonly mode: "elevenlabs" | "offline";
  listVoices(): Promise<VoiceSummary[]>;
  /** An instant voice clone from one sample; answers the new voice id. */
  cloneVoice(request: { name: string; description: string; sample: LocalFile }): Promise<string>;
}
