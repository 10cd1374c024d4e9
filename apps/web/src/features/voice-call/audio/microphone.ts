import {
  type MicrophoneHandlers,
  type MicrophoneLike,
  RecordingUnsupportedError,
} from "../call/call-session";
import { pickRecordingFormat, rmsLevel, type VadOptions, VoiceActivityDetector } from "./vad";

/** How often the microphone level is read (ms). */
const LEVEL_INTERVAL_MS = 20;

/**
 * The microphone of a call: getUserMedia with echo cancellation, noise suppression and automatic
 * gain; its level (AnalyserNode RMS) drives the VoiceActivityDetector; a MediaRecorder runs per
 * turn and is restarted at each utterance's end, so every upload is one self-contained file.
 * A turn without speech is dropped, never sent.
 */
export async function openMicrophone(
  handlers: MicrophoneHandlers,
  { bargeIn: initialBargeIn }: { bargeIn: boolean },
  vadOptions: Partial<VadOptions> = {},
  /** The call's context (unlocked in the Start click); without it the microphone makes its own. */
  shared: AudioContext | null = null,
): Promise<MicrophoneLike> {
  if (
    typeof navigator === "undefined" ||
    !navigator.mediaDevices?.getUserMedia ||
    typeof MediaRecorder === "undefined" ||
    typeof AudioContext === "undefined"
  ) {
    throw new RecordingUnsupportedError("MediaRecorder or getUserMedia is missing");
  }
  const mimeType = pickRecordingFormat((type) => MediaRecorder.isTypeSupported(type));
  if (!mimeType) throw new RecordingUnsupportedError("no supported recording format");

  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
  });
  const context = shared ?? new AudioContext();
  void context.resume().catch(() => undefined);
  const source = context.createMediaStreamSource(stream);
  const analyser = context.createAnalyser();
  analyser.fftSize = 1024;
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const vad = new VoiceActivityDetector(vadOptions);

  let recorder: MediaRecorder | null = null;
  let muted = false;
  let personaSpeaking = false;
  let bargeIn = initialBargeIn;
  let speaking = false;
  let stopped = false;

  const setSpeaking = (value: boolean) => {
    if (speaking === value) return;
    speaking = value;
    handlers.onSpeech(value);
  };

  /** A new recording for the next turn. */
  const startRecorder = () => {
    if (stopped || recorder) return;
    const current = new MediaRecorder(stream, { mimeType });
    const chunks: Blob[] = [];
    current.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    (current as MediaRecorder & { chunks?: Blob[] }).chunks = chunks;
    current.start();
    recorder = current;
  };

  /** Ends the current recording; `send`: it held an utterance, so it goes up. */
  const finishRecorder = (send: boolean) => {
    const current = recorder;
    recorder = null;
    if (!current || current.state === "inactive") return;
    const chunks = (current as MediaRecorder & { chunks?: Blob[] }).chunks ?? [];
    current.onstop = () => {
      if (send) handlers.onUtterance(new Blob(chunks, { type: mimeType.split(";")[0] }));
    };
    current.stop();
  };

  /** Listening is paused while muted, and while the persona speaks when barge-in is off. */
  const paused = () => muted || (personaSpeaking && !bargeIn);

  const tick = () => {
    if (stopped) return;
    if (paused()) return;
    analyser.getFloatTimeDomainData(samples);
    const now = performance.now();
    for (const event of vad.push(rmsLevel(samples), now, personaSpeaking)) {
      if (event.type === "speech_start") setSpeaking(true);
      else if (event.type === "barge_in") handlers.onBargeIn();
      else if (event.type === "utterance_end") {
        setSpeaking(false);
        finishRecorder(true);
        startRecorder();
      } else if (event.type === "idle") {
        // Nothing said for a while: drop that recording, keep the next one short.
        finishRecorder(false);
        startRecorder();
      }
    }
  };

  /** Stops listening (dropping the turn) or starts again, as `paused()` says. */
  const applyPause = () => {
    if (paused()) {
      finishRecorder(false);
      setSpeaking(false);
      vad.reset(performance.now());
    } else if (!recorder) {
      vad.reset(performance.now());
      startRecorder();
    }
  };

  startRecorder();
  const timer = setInterval(tick, LEVEL_INTERVAL_MS);

  return {
    setMuted(value) {
      muted = value;
      for (const track of stream.getAudioTracks()) track.enabled = !value;
      applyPause();
    },
    setPersonaSpeaking(value) {
      personaSpeaking = value;
      applyPause();
    },
    setBargeIn(value) {
      bargeIn = value;
      applyPause();
    },
    stop() {
      if (stopped) return;
      finishRecorder(false);
      stopped = true;
      clearInterval(timer);
      for (const track of stream.getTracks()) track.stop();
      source.disconnect();
      analyser.disconnect();
      if (!shared) void context.close().catch(() => undefined);
    },
  };
}
