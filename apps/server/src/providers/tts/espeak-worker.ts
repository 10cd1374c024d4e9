// eSpeak NG's own thread (espeak-thread.ts starts it): compiles the WASM module once and
// instantiates it per sentence (the build runs its command line once per instance).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Transferred } from "../../lib/worker-rpc-protocol.ts";
import { serveWorkerRpc } from "../../lib/worker-rpc-serve.ts";
import type { EspeakMethods } from "./espeak-protocol.ts";

// The npm package has no types; its default export is Emscripten's module factory.
type ESpeakNgFactory = (options: Record<string, unknown>) => Promise<{
  FS: { readFile(path: string): Uint8Array<ArrayBuffer> };
}>;

// The server's TypeScript has Node's types only (no DOM lib), which declare no WebAssembly API.
type WasmModule = { readonly kind: "WebAssembly.Module" };
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      compile(bytes: Uint8Array): Promise<WasmModule>;
      instantiate(module: WasmModule, imports: unknown): Promise<unknown>;
    };
  }
).WebAssembly;

const modulePath = createRequire(import.meta.url).resolve("espeak-ng");
const { default: ESpeakNg } = (await import(pathToFileURL(modulePath).href)) as {
  default: ESpeakNgFactory;
};
const compiled = await wasm.compile(
  readFileSync(new URL("./espeak-ng.wasm", pathToFileURL(modulePath))),
);

async function speak(text: string, voice: string): Promise<Uint8Array<ArrayBuffer>> {
  const out = "/speech.wav";
  try {
    const instance = await ESpeakNg({
      // "--" ends the options: a sentence starting with "-" is spoken, not parsed.
      arguments: ["-v", voice, "-s", "165", "-w", out, "--", text],
      print: () => {},
      printErr: () => {},
      instantiateWasm(imports: unknown, done: (instance: unknown, module: WasmModule) => void) {
        wasm.instantiate(compiled, imports).then((made) => done(made, compiled));
        return {};
      },
    });
    return instance.FS.readFile(out);
  } catch (error) {
    // Emscripten may throw what is not an Error (its exit status).
    const message = (error as { message?: unknown } | undefined)?.message;
    throw new Error(`Offline speech failed: ${String(message || error)}`);
  }
}

// One sentence at a time, in the order asked.
let queue: Promise<unknown> = Promise.resolve();

serveWorkerRpc<EspeakMethods>({
  speak({ text, voice }) {
    const spoken = queue.then(async () => {
      const wav = await speak(text, voice);
      return new Transferred(wav, [wav.buffer]);
    });
    queue = spoken.catch(() => {});
    return spoken;
  },
});
