import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VOICE_MESSAGES } from "@twinline/contracts";
import type { SttProvider } from "./types.ts";
import { toRecogniserWav } from "./wav.ts";

/** Debian's `pocketsphinx` binary and `pocketsphinx-en-us` model (docs/decisions/0043). */
export const DEFAULT_POCKETSPHINX_BIN = "/usr/bin/pocketsphinx_continuous";
export const DEFAULT_POCKETSPHINX_MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";

export interface PocketsphinxOptions {
  bin: string;
  /** Holds the acoustic model `en-us/`, `en-us.lm.bin` and `cmudict-en-us.dict`. */
  modelDir: string;
}

/** True when the recogniser and its English model are installed where `options` say. */
export function pocketsphinxInstalled(options: PocketsphinxOptions): boolean {
  return (
    existsSync(options.bin) &&
    existsSync(join(options.modelDir, "en-us")) &&
    existsSync(join(options.modelDir, "en-us.lm.bin")) &&
    existsSync(join(options.modelDir, "cmudict-en-us.dict"))
  );
}

/**
 * Offline speech to text with CMU PocketSphinx (the Debian packages; no key, no network): each
 * utterance, a WAV, is converted in-process to 16 kHz mono and recognised by one run of
 * `pocketsphinx_continuous` (about a third of real time on one core here; rough, about 30% word
 * errors on read speech: the call says so). An upload that is not WAV (the level-detector
 * client's webm) cannot be decoded without a codec library: the offline notice is answered.
 */
export function createPocketsphinxStt(options: PocketsphinxOptions): SttProvider {
  return {
    mode: "pocketsphinx",
    async transcribe({ audio, signal }) {
      const wav = toRecogniserWav(audio);
      if (!wav) return { text: VOICE_MESSAGES.offlineTranscription, offline: true };
      const dir = await mkdtemp(join(tmpdir(), "twinline-stt-"));
      try {
        const file = join(dir, "utterance.wav");
        await writeFile(file, wav);
        const text = await new Promise<string>((resolve, reject) => {
          execFile(
            options.bin,
            [
              "-infile",
              file,
              "-hmm",
              join(options.modelDir, "en-us"),
              "-lm",
              join(options.modelDir, "en-us.lm.bin"),
              "-dict",
              join(options.modelDir, "cmudict-en-us.dict"),
              "-logfn",
              "/dev/null",
            ],
            { signal, timeout: 60_000, maxBuffer: 1024 * 1024 },
            (error, stdout) => (error ? reject(error) : resolve(stdout)),
          );
        });
        // One line per segment it heard.
        return {
          text: text
            .split("\n")
            .map((line) => line.trim())
            .filter(Boolean)
            .join(" "),
        };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
