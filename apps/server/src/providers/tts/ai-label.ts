import type { SynthesizedAudio } from "./types.ts";

/**
 * Synthetic speech says what it is, in the file itself (issue 25: the EU AI Act's article 50 asks
 * for a machine-readable mark on synthetic audio): a WAV carries a RIFF INFO list, an MP3 an ID3v2
 * comment, each naming the site and "AI-generated". Answers over HTTP add AI_GENERATED_HEADER.
 */
export const AI_GENERATED_HEADER = "AI-Generated";

/** The comment written into every synthesized file. */
export function aiGeneratedComment(siteName: string): string {
  return `AI-generated voice. Synthetic speech made by ${siteName}; not a recording of a person.`;
}

/** `audio` with the AI-generated mark of its format; a format without one is returned as it is. */
export function labelAiGenerated(audio: SynthesizedAudio, siteName: string): SynthesizedAudio {
  const comment = aiGeneratedComment(siteName);
  if (audio.format === "audio/wav") {
    const labelled = withRiffInfo(audio.audio, comment, siteName);
    return labelled ? { ...audio, audio: labelled } : audio;
  }
  if (audio.format === "audio/mpeg") {
    return { ...audio, audio: Buffer.concat([id3Comment(comment), audio.audio]) };
  }
  return audio;
}

/** A RIFF sub-chunk: id, little-endian size, body, a pad byte to an even length. */
function riffChunk(id: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, "latin1");
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body, Buffer.alloc(body.length % 2)]);
}

/** A RIFF INFO text: UTF-8, NUL-terminated. */
const infoText = (text: string) => Buffer.concat([Buffer.from(text, "utf8"), Buffer.alloc(1)]);

/**
 * The WAV with a LIST/INFO chunk (ICMT comment, ISFT software) before its data chunk, where
 * players and tools look for it; null when the file is not a RIFF/WAVE with a data chunk.
 */
function withRiffInfo(wav: Buffer, comment: string, siteName: string): Buffer | null {
  if (wav.length < 12 || wav.toString("latin1", 0, 4) !== "RIFF") return null;
  if (wav.toString("latin1", 8, 12) !== "WAVE") return null;
  let offset = 12;
  while (offset + 8 <= wav.length && wav.toString("latin1", offset, offset + 4) !== "data") {
    const size = wav.readUInt32LE(offset + 4);
    offset += 8 + size + (size % 2);
  }
  if (offset + 8 > wav.length) return null;
  const list = riffChunk(
    "LIST",
    Buffer.concat([
      Buffer.from("INFO", "latin1"),
      riffChunk("ICMT", infoText(comment)),
      riffChunk("ISFT", infoText(siteName)),
    ]),
  );
  const labelled = Buffer.concat([wav.subarray(0, offset), list, wav.subarray(offset)]);
  labelled.writeUInt32LE(Math.min(labelled.length - 8, 0xffff_ffff), 4);
  return labelled;
}

/** A 28-bit ID3v2 "syncsafe" integer: seven bits a byte. */
function syncsafe(value: number): Buffer {
  return Buffer.from([
    (value >> 21) & 0x7f,
    (value >> 14) & 0x7f,
    (value >> 7) & 0x7f,
    value & 0x7f,
  ]);
}

/** An ID3v2.4 tag holding one COMM frame (UTF-8, language "eng", no description). */
function id3Comment(comment: string): Buffer {
  const body = Buffer.concat([
    Buffer.from([0x03]),
    Buffer.from("eng", "latin1"),
    Buffer.from([0x00]),
    Buffer.from(comment, "utf8"),
  ]);
  const frame = Buffer.concat([
    Buffer.from("COMM", "latin1"),
    syncsafe(body.length),
    Buffer.alloc(2),
    body,
  ]);
  const header = Buffer.concat([
    Buffer.from("ID3", "latin1"),
    Buffer.from([4, 0, 0]),
    syncsafe(frame.length),
  ]);
  return Buffer.concat([header, frame]);
}
