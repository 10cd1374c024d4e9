/**
 * The call's one AudioContext, created and resumed inside the Start click: browsers (Safari on
 * an iPhone above all) only let a page start audio from a user gesture, and a context created
 * later, after the awaits of the start, would stay suspended: no persona voice, and a silent
 * analyser for the microphone. Null when the browser has no Web Audio.
 */
export function createUnlockedAudioContext(): AudioContext | null {
  if (typeof AudioContext === "undefined") return null;
  try {
    const context = new AudioContext();
    void context.resume().catch(() => undefined);
    return context;
  } catch {
    return null;
  }
}
