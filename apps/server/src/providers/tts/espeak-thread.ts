import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * eSpeak NG compiled to WebAssembly (the npm package `espeak-ng`), run in its own thread: one
 * synthesis takes 150–300 ms of CPU, which must not stop the event loop that carries every
 * call's audio. The thread compiles the WASM module once and instantiates it per sentence (the
 * build runs its command line once per instance); requests queue in order.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const { fileURLToPath } = require("node:url");
(async () => {
  const { default: ESpeakNg } = await import(workerData.moduleUrl);
  const wasmPath = fileURLToPath(new URL("./espeak-ng.wasm", workerData.moduleUrl));
  const compiled = await WebAssembly.compile(readFileSync(wasmPath));
  let queue = Promise.resolve();
  parentPort.on("message", ({ id, text, voice }) => {
    queue = queue.then(async () => {
      try {
        const out = "/speech.wav";
        const instance = await ESpeakNg({
          // "--" ends the options: a sentence starting with "-" is spoken, not parsed.
          arguments: ["-v", voice, "-s", "165", "-w", out, "--", text],
          print: () => {},
          printErr: () => {},
          instantiateWasm(imports, done) {
            WebAssembly.instantiate(compiled, imports).then((made) => done(made, compiled));
            return {};
          },
        });
        const wav = instance.FS.readFile(out);
        parentPort.postMessage({ id, wav }, [wav.buffer]);
      } catch (error) {
        parentPort.postMessage({ id, error: String(error && error.message ? error.message : error) });
      }
    });
  });
  parentPort.postMessage({ ready: true });
})().catch((error) => parentPort.postMessage({ fatal: String(error) }));
`;

interface Pending {
  resolve(wav: Buffer): void;
  reject(error: Error): void;
}

export interface EspeakThread {
  speak(text: string, signal?: AbortSignal): Promise<Buffer>;
  close(): Promise<void>;
}

const moduleUrl = () => pathToFileURL(createRequire(import.meta.url).resolve("espeak-ng")).href;

export function startEspeakThread(voice = "en-us+f3"): EspeakThread {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { moduleUrl: moduleUrl() } });
  // The thread must not keep the process alive on its own.
  worker.unref();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure = error;
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };
  worker.on(
    "message",
    (message: { id?: number; wav?: Uint8Array; error?: string; fatal?: string }) => {
      if (message.fatal)
        return failAll(new Error(`Offline speech failed to start: ${message.fatal}`));
      if (message.id === undefined) return;
      const entry = pending.get(message.id);
      if (!entry) return;
      pending.delete(message.id);
      if (pending.size === 0) worker.unref();
      if (message.wav) entry.resolve(Buffer.from(message.wav));
      else entry.reject(new Error(`Offline speech failed: ${message.error ?? "unknown error"}`));
    },
  );
  worker.on("error", (error) => failAll(error));
  worker.on("exit", () => failAll(new Error("Offline speech thread stopped")));

  return {
    speak(text, signal) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise<Buffer>((resolve, reject) => {
        const onAbort = () => {
          pending.delete(id);
          reject(signal?.reason ?? new Error("aborted"));
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener("abort", onAbort, { once: true });
        pending.set(id, {
          resolve: (wav) => {
            signal?.removeEventListener("abort", onAbort);
            resolve(wav);
          },
          reject: (error) => {
            signal?.removeEventListener("abort", onAbort);
            reject(error);
          },
        });
        worker.ref();
        worker.postMessage({ id, text, voice });
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
