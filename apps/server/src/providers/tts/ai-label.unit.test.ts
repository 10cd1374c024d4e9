import { makeMp3Tone, makeWavTone } from "@twinline/fakes";
import { describe, expect, it } from "vitest";
import { parseWav } from "../stt/wav.ts";
import { aiGeneratedComment, labelAiGenerated } from "./ai-label.ts";

const SITE = "Twinline Demo";

/** The chunks of a RIFF file, as [id, body] in order. */
function riffChunks(file: Buffer, from = 12, to = file.length): [string, Buffer][] {
  const chunks: [string, Buffer][] = [];
  for (let offset = from; offset + 8 <= to; ) {
    const size = file.readUInt32LE(offset + 4);
    chunks.push([
      file.toString("latin1", offset, offset + 4),
      file.subarray(offset + 8, offset + 8 + size),
    ]);
    offset += 8 + size + (size % 2);
  }
  return chunks;
}

describe("synthesized audio carries a machine-readable AI-generated mark", () => {
  it("a WAV gains a RIFF INFO comment naming the site, before its samples, which stay the same", () => {
    const wav = makeWavTone(0.5);
    const labelled = labelAiGenerated({ format: "audio/wav", audio: wav }, SITE).audio;

    expect(labelled.readUInt32LE(4)).toBe(labelled.length - 8);
    const chunks = riffChunks(labelled);
    expect(chunks.map(([id]) => id)).toEqual(["fmt ", "LIST", "data"]);
    const list = chunks[1]?.[1] ?? Buffer.alloc(0);
    expect(list.toString("latin1", 0, 4)).toBe("INFO");
    const info = Object.fromEntries(
      riffChunks(list, 4).map(([id, body]) => [id, body.toString("utf8").replace(/\0+$/, "")]),
    );
    expect(info).toEqual({ ICMT: aiGeneratedComment(SITE), ISFT: SITE });
    expect(info.ICMT).toContain("AI-generated");
    // A player reads the same samples as before.
    expect(parseWav(labelled)?.data.equals(parseWav(wav)?.data ?? Buffer.alloc(1))).toBe(true);
  });

  it("an MP3 gains an ID3v2.4 comment frame in front of its frames", () => {
    const mp3 = makeMp3Tone();
    const labelled = labelAiGenerated({ format: "audio/mpeg", audio: mp3 }, SITE).audio;
    expect(labelled.toString("latin1", 0, 3)).toBe("ID3");
    expect(labelled[3]).toBe(4);
    const tagSize =
      ((labelled[6] ?? 0) << 21) |
      ((labelled[7] ?? 0) << 14) |
      ((labelled[8] ?? 0) << 7) |
      (labelled[9] ?? 0);
    const tag = labelled.subarray(10, 10 + tagSize);
    expect(tag.toString("latin1", 0, 4)).toBe("COMM");
    expect(tag.subarray(10).toString("utf8")).toBe(`\u0003eng\u0000${aiGeneratedComment(SITE)}`);
    expect(labelled.subarray(10 + tagSize).equals(mp3)).toBe(true);
  });

  it("a file that is not what its format says is handed on untouched", () => {
    const broken = Buffer.from("RIFF....WAVEfmt ");
    expect(labelAiGenerated({ format: "audio/wav", audio: broken }, SITE).audio).toBe(broken);
    const other = Buffer.from("OggS");
    expect(labelAiGenerated({ format: "audio/ogg", audio: other }, SITE).audio).toBe(other);
  });
});
