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

/** One complete, self-contained audio file. */
export interface SynthesizedAudio {
  /** MIME type: audio/mpeg (ElevenLabs) or audio/wav (offline). */
  format: string;
  audio: Buffer;
}

export interface SynthesizeRequest {
  text: string;
  /** The persona's trained voice (AI training); unset: the provider's default voice. */
  voiceId?: string | null | undefined;
  /** Aborting it cancels the synthesis (barge-in, a call that ended). */
  signal?: AbortSignal;
}

/** Text to speech and voice cloning (docs/decisions/0021-voice-call.md). */
export interface TtsProvider {
  readonly mode: "elevenlabs" | "offline";
  listVoices(): Promise<VoiceSummary[]>;
  /** An instant voice clone from one sample; answers the new voice id. */
  cloneVoice(request: { name: string; description: string; sample: LocalFile }): Promise<string>;
  /** One sentence (or a short text) as one playable audio file. */
  synthesize(request: SynthesizeRequest): Promise<SynthesizedAudio>;
}
