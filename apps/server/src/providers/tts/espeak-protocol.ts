// What the eSpeak thread serves (espeak-worker.ts, espeak-thread.ts), over lib/worker-rpc.ts.
import type { Transferred } from "../../lib/worker-rpc-protocol.ts";

export type EspeakMethods = {
  /** The sentence spoken by `voice`, as a WAV file. */
  speak(request: { text: string; voice: string }): Promise<Transferred<Uint8Array>>;
};
