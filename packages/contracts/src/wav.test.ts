import { describe, expect, it } from "vitest";
import { encodePcm16Wav } from "./wav";

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const text = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

describe("the one WAV writer", () => {
  it("writes a canonical 44-byte header for mono 16-bit PCM at the given rate", () => {
    const bytes = encodePcm16Wav([new Float32Array(3)], 16_000);
    const header = view(bytes);
    expect(bytes.byteLength).toBe(44 + 6);
    expect([text(bytes, 0), text(bytes, 8), text(bytes, 12), text(bytes, 36)]).toEqual([
      "RIFF",
      "WAVE",
      "fmt ",
      "data",
    ]);
    expect(header.getUint32(4, true)).toBe(36 + 6);
    expect(header.getUint16(20, true)).toBe(1);
    expect(header.getUint16(22, true)).toBe(1);
    expect(header.getUint32(24, true)).toBe(16_000);
    expect(header.getUint32(28, true)).toBe(32_000);
    expect(header.getUint16(32, true)).toBe(2);
    expect(header.getUint16(34, true)).toBe(16);
    expect(header.getUint32(40, true)).toBe(6);
  });

  it("joins the chunks in order, rounds, and clamps beyond full scale", () => {
    const bytes = encodePcm16Wav([[0, 0.5], [], [1, -1, 2, -2, Number.NaN]], 8_000);
    const samples = Array.from({ length: 7 }, (_, i) => view(bytes).getInt16(44 + i * 2, true));
    expect(samples).toEqual([0, 16384, 32767, -32767, 32767, -32767, 0]);
  });

  it("writes an empty file for no samples", () => {
    const bytes = encodePcm16Wav([], 44_100);
    expect(bytes.byteLength).toBe(44);
    expect(view(bytes).getUint32(40, true)).toBe(0);
  });
});
