import type { PlayerHandlers, PlayerLike } from "../call/call-session";

/** "Not playing" is announced only after this much quiet, so a gap between sentences is not. */
const QUIET_AFTER_MS = 250;

/**
 * Plays the persona's reply with Web Audio: each binary frame is one self-contained audio file
 * (a sentence), decoded in arrival order and scheduled right after the previous one, so the first
 * sentence plays as soon as it arrives. `stop` silences everything at once (barge-in).
 */
export function createAudioPlayer(
  handlers: PlayerHandlers,
  /** The call's context (unlocked in the Start click); the player closes it at the end. */
  shared: AudioContext | null = null,
): PlayerLike {
  const context = shared && shared.state !== "closed" ? shared : new AudioContext();
  void context.resume().catch(() => undefined);
  let decoding: Promise<void> = Promise.resolve();
  /** Bumped by stop: frames decoded for an older generation are dropped. */
  let generation = 0;
  let nextAt = 0;
  const sources = new Set<AudioBufferSourceNode>();
  let playing = false;
  let quietTimer: ReturnType<typeof setTimeout> | null = null;

  const setPlaying = (value: boolean) => {
    if (quietTimer) {
      clearTimeout(quietTimer);
      quietTimer = null;
    }
    if (value) {
      if (!playing) {
        playing = true;
        handlers.onPlaying(true);
      }
      return;
    }
    quietTimer = setTimeout(() => {
      quietTimer = null;
      if (playing && sources.size === 0) {
        playing = false;
        handlers.onPlaying(false);
      }
    }, QUIET_AFTER_MS);
  };

  return {
    play(bytes) {
      const mine = generation;
      decoding = decoding.then(async () => {
        if (mine !== generation) return;
        let buffer: AudioBuffer;
        try {
          if (context.state === "suspended") await context.resume();
          // decodeAudioData detaches its argument: decode a copy.
          buffer = await context.decodeAudioData(bytes.slice(0));
        } catch {
          if (mine === generation) handlers.onError();
          return;
        }
        if (mine !== generation) return;
        const node = context.createBufferSource();
        node.buffer = buffer;
        node.connect(context.destination);
        const at = Math.max(context.currentTime, nextAt);
        node.onended = () => {
          sources.delete(node);
          if (sources.size === 0 && mine === generation) setPlaying(false);
        };
        sources.add(node);
        node.start(at);
        nextAt = at + buffer.duration;
        setPlaying(true);
      });
    },
    stop() {
      generation++;
      for (const node of sources) {
        node.onended = null;
        try {
          node.stop();
        } catch {
          // not started yet
        }
      }
      sources.clear();
      nextAt = 0;
      if (quietTimer) clearTimeout(quietTimer);
      quietTimer = null;
      if (playing) {
        playing = false;
        handlers.onPlaying(false);
      }
    },
    close() {
      this.stop();
      void context.close().catch(() => undefined);
    },
  };
}
