import type { CallChannel } from "./pipeline.ts";

/**
 * The channel of one turn, timing its end of speech (the utterance received: made with the turn)
 * to its first audio out (twinline_voice_first_audio_seconds). Behind the turn's held channel,
 * so a candidate's audio counts when it reaches the fan, at its commit. No observer: the channel.
 */
export function timeFirstAudio(
  channel: CallChannel,
  observe: ((seconds: number) => void) | undefined,
): CallChannel {
  if (!observe) return channel;
  const heardAt = performance.now();
  let sent = false;
  return {
    sendJson: (message) => channel.sendJson(message),
    sendAudio(audio) {
      if (!sent) {
        sent = true;
        observe((performance.now() - heardAt) / 1000);
      }
      channel.sendAudio(audio);
    },
  };
}
