/** One utterance, as the browser recorded it: a self-contained audio file. */
export interface TranscribeRequest {
  audio: Buffer;
  /** MIME type when known (audio/webm, audio/ogg, audio/mpeg, audio/wav). */
  contentType?: string | undefined;
  signal?: AbortSignal;
}

export interface Transcription {
  text: string;
  /** True when nothing was transcribed: `text` is then the offline notice. */
  offline?: boolean;
}

/** Speech to text of the voice call (docs/decisions/0021-voice-call.md). */
export interface SttProvider {
  readonly mode: "openai" | "pocketsphinx" | "offline";
  transcribe(request: TranscribeRequest): Promise<Transcription>;
}
