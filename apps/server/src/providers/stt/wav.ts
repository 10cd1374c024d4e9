import { encodePcm16Wav } from "@twinline/contracts";

/**
 * WAV in, 16 kHz mono 16-bit PCM WAV out, in-process: what pocketsphinx's English model wants.
 * Reads PCM 8/16/24/32-bit and 32-bit float, any channel count and sample rate (channels are
 * averaged; the rate is changed by linear interpolation, enough for a recogniser).
 */
export const RECOGNISER_SAMPLE_RATE = 16_000;

interface WavFormat {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  data: Buffer;
}

/** The format and samples of a RIFF/WAVE file, or null when it is not one this can read. */
export function parseWav(file: Buffer): WavFormat | null {
  if (file.length < 12) return null;
  if (file.toString("latin1", 0, 4) !== "RIFF" || file.toString("latin1", 8, 12) !== "WAVE") {
    return null;
  }
  let fmt: Omit<WavFormat, "data"> | null = null;
  let offset = 12;
  while (offset + 8 <= file.length) {
    const id = file.toString("latin1", offset, offset + 4);
    const size = file.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt " && body + 16 <= file.length) {
      let format = file.readUInt16LE(body);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the sub-format's first two bytes.
      if (format === 0xfffe && body + 26 <= file.length) format = file.readUInt16LE(body + 24);
      fmt = {
        format,
        channels: file.readUInt16LE(body + 2),
        sampleRate: file.readUInt32LE(body + 4),
        bitsPerSample: file.readUInt16LE(body + 14),
      };
    } else if (id === "data" && fmt) {
      // A streamed WAV may say 0 or too much: take what is there.
      const end = size === 0 ? file.length : Math.min(file.length, body + size);
      return { ...fmt, data: file.subarray(body, end) };
    }
    offset = body + size + (size % 2);
  }
  return null;
}

function sampleReader(wav: WavFormat): ((index: number) => number) | null {
  const { format, bitsPerSample: bits, data } = wav;
  if (format === 3 && bits === 32) return (i) => data.readFloatLE(i * 4);
  if (format !== 1) return null;
  if (bits === 16) return (i) => data.readInt16LE(i * 2) / 32768;
  if (bits === 8) return (i) => ((data[i] ?? 128) - 128) / 128;
  if (bits === 24) return (i) => data.readIntLE(i * 3, 3) / 8388608;
  if (bits === 32) return (i) => data.readInt32LE(i * 4) / 2147483648;
  return null;
}

/** The recording as 16 kHz mono PCM16 WAV, or null when it is not a WAV this can read. */
export function toRecogniserWav(file: Buffer): Buffer | null {
  const wav = parseWav(file);
  if (!wav || wav.channels < 1 || wav.sampleRate < 1) return null;
  const read = sampleReader(wav);
  if (!read) return null;
  const bytesPerFrame = (wav.bitsPerSample / 8) * wav.channels;
  const frames = Math.floor(wav.data.length / bytesPerFrame);
  const mono = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < wav.channels; c++) sum += read(f * wav.channels + c);
    mono[f] = sum / wav.channels;
  }
  const ratio = wav.sampleRate / RECOGNISER_SAMPLE_RATE;
  const length = Math.floor(frames / ratio);
  const resampled = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    const at = i * ratio;
    const left = Math.floor(at);
    const right = Math.min(frames - 1, left + 1);
    resampled[i] = (mono[left] ?? 0) + ((mono[right] ?? 0) - (mono[left] ?? 0)) * (at - left);
  }
  return pcm16Wav(resampled, RECOGNISER_SAMPLE_RATE);
}

/** A mono 16-bit PCM WAV file of float samples (-1..1, clamped): contracts' one writer. */
export function pcm16Wav(values: ArrayLike<number>, sampleRate: number): Buffer {
  const bytes = encodePcm16Wav([values], sampleRate);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
