import { startModuleWorker } from "../../lib/module-worker.ts";
import { connectWorkerRpc } from "../../lib/worker-rpc.ts";
import type { EspeakMethods } from "./espeak-protocol.ts";

export interface EspeakThread {
  speak(text: string, signal?: AbortSignal): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * eSpeak NG compiled to WebAssembly (the npm package `espeak-ng`), run in its own thread
 * (espeak-worker.ts): one synthesis takes 150–300 ms of CPU, which must not stop the event loop
 * that carries every call's audio. Requests queue in order.
 */
export function startEspeakThread(voice = "en-us+f3"): EspeakThread {
  const rpc = connectWorkerRpc<EspeakMethods>(
    startModuleWorker("espeak-worker", "providers/tts/espeak-worker"),
    {
      stopped: (cause, starting) => {
        if (typeof cause === "number") return new Error("Offline speech thread stopped");
        return starting ? new Error(`Offline speech failed to start: ${String(cause)}`) : cause;
      },
      // The thread must not keep the process alive on its own.
      unrefWhenIdle: true,
    },
  );
  return {
    async speak(text, signal) {
      return Buffer.from(await rpc.call("speak", { text, voice }, { signal }));
    },
    close: () => rpc.close(),
  };
}
