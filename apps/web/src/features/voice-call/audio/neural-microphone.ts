import {
  type MicrophoneHandlers,
  type MicrophoneLike,
  RecordingUnsupportedError,
} from "../call/call-session";
import { TurnDetector, type TurnOptions } from "./turn-detector";
import { encodeWav } from "./wav";

/**
 * Where the build puts the VAD's files (apps/web/vite.config.ts `vadAssets`): the Silero model,
 * the audio worklet and onnxruntime-web's WASM, served by this app, never a CDN.
 */
export const VAD_ASSET_BASE = "/vad/";
const SAMPLE_RATE = 16_000;
/** Speech heard before the detector was sure, kept at the start of the utterance. */
const PRE_SPEECH_FRAMES = 10;

/**
 * The call's microphone with Silero VAD (@ricky0123/vad-web, loaded here on the call page only):
 * the model's speech probability per 32 ms frame drives the TurnDetector (the decisions, tested
 * on their own); this adapter keeps the frames of the utterance and turns its events into the
 * session's candidate, commit, cancel and barge-in. Each candidate is the whole utterance so far
 * as a 16 kHz mono WAV. docs/decisions/0043-neural-voice-detection.md.
 */
export async function openNeuralMicrophone(
  handlers: MicrophoneHandlers,
  { bargeIn: initialBargeIn }: { bargeIn: boolean },
  turnOptions: Partial<TurnOptions> = {},
  shared: AudioContext | null = null,
): Promise<MicrophoneLike> {
  if (
    typeof navigator === "undefined" ||
    !navigator.mediaDevices?.getUserMedia ||
    typeof AudioContext === "undefined" ||
    typeof WebAssembly === "undefined"
  ) {
    throw new RecordingUnsupportedError("getUserMedia, Web Audio or WebAssembly is missing");
  }
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: {
      channelCount: 1,
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
    },
  });
  const context = shared ?? new AudioContext();
  void context.resume().catch(() => undefined);
  const detector = new TurnDetector(turnOptions);

  let muted = false;
  let personaSpeaking = false;
  let bargeIn = initialBargeIn;
  let speaking = false;
  let stopped = false;
  let recent: Float32Array[] = [];
  let utterance: Float32Array[] = [];
  /**
   * After a commit, while the fan may go on with the same utterance (`continueMs`): its frames
   * and every frame since, so a continuation is sent whole, from its first word.
   */
  let committed: { frames: Float32Array[]; at: number } | null = null;
  /** A candidate went up and was neither committed nor cancelled yet. */
  let candidatePending = false;

  const setSpeaking = (value: boolean) => {
    if (speaking === value) return;
    speaking = value;
    handlers.onSpeech(value);
  };
  const paused = () => muted || (personaSpeaking && !bargeIn);
  const forget = () => {
    if (candidatePending) {
      candidatePending = false;
      handlers.onCancel();
    }
    utterance = [];
    recent = [];
    committed = null;
    setSpeaking(false);
    detector.reset(performance.now());
  };

  const onFrame = (probability: number, frame: Float32Array) => {
    if (stopped || paused()) return;
    const now = performance.now();
    if (detector.isSpeaking) utterance.push(frame);
    else {
      recent.push(frame);
      if (recent.length > PRE_SPEECH_FRAMES) recent.shift();
      if (committed && now - committed.at > detector.options.continueMs * 2) committed = null;
      committed?.frames.push(frame);
    }
    for (const event of detector.push(probability, now, personaSpeaking)) {
      switch (event.type) {
        case "speech_start":
          utterance = recent;
          // The fan went on right after the commit (and heard nothing yet): one utterance.
          if (event.resumesTurn && committed && handlers.onContinue()) {
            utterance = committed.frames;
          }
          committed = null;
          recent = [];
          setSpeaking(true);
          break;
        case "barge_in":
          handlers.onBargeIn();
          break;
        case "candidate":
          candidatePending = true;
          handlers.onCandidate(
            new Blob([encodeWav(utterance, SAMPLE_RATE)], { type: "audio/wav" }),
          );
          break;
        case "cancel":
          candidatePending = false;
          handlers.onCancel();
          break;
        case "commit":
          candidatePending = false;
          committed = { frames: utterance, at: now };
          utterance = [];
          setSpeaking(false);
          handlers.onCommit();
          break;
        case "misfire":
          utterance = [];
          setSpeaking(false);
          handlers.onMisfire();
          break;
        case "idle":
          break;
      }
    }
  };

  let vad: { destroy(): Promise<void> };
  try {
    const { MicVAD } = await import("@ricky0123/vad-web");
    vad = await MicVAD.new({
      model: "v5",
      baseAssetPath: VAD_ASSET_BASE,
      onnxWASMBasePath: VAD_ASSET_BASE,
      audioContext: context,
      // The call's own stream: muting and the end are handled here, not by the library.
      getStream: async () => stream,
      pauseStream: async () => undefined,
      resumeStream: async (same) => same,
      onFrameProcessed: (probabilities, frame) => onFrame(probabilities.isSpeech, frame),
      ortConfig: (ort) => {
        ort.env.logLevel = "error";
        // One thread: no SharedArrayBuffer (cross-origin isolation) is needed.
        ort.env.wasm.numThreads = 1;
      },
    });
  } catch (error) {
    for (const track of stream.getTracks()) track.stop();
    throw error;
  }

  return {
    hear(unfinished) {
      detector.hear(unfinished);
    },
    setMuted(value) {
      muted = value;
      for (const track of stream.getAudioTracks()) track.enabled = !value;
      if (paused()) forget();
    },
    setPersonaSpeaking(value) {
      personaSpeaking = value;
      if (paused()) forget();
    },
    setBargeIn(value) {
      bargeIn = value;
      if (paused()) forget();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      for (const track of stream.getTracks()) track.stop();
      void vad.destroy().catch(() => undefined);
    },
  };
}
