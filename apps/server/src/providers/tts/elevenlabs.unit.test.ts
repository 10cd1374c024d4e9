import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ProviderError } from "../errors.ts";
import { createElevenLabsTts } from "./elevenlabs.ts";

const AUDIO = Buffer.from("ID3 a short mp3 stand-in");

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A speech endpoint that drops the connection of the first `drops` requests, then answers. */
async function speechServer(drops: number) {
  let requests = 0;
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      requests++;
      if (requests <= drops) {
        request.socket.destroy();
        return;
      }
      response.writeHead(200, { "content-type": "audio/mpeg" });
      response.end(AUDIO);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const tts = createElevenLabsTts({ apiKey: "xi-test-key", baseUrl: `http://127.0.0.1:${port}` });
  return { tts, requests: () => requests };
}

describe("ElevenLabs speech over a connection the provider drops", () => {
  it("asks a sentence once more when its connection dropped before any audio", async () => {
    const { tts, requests } = await speechServer(1);
    const spoken = await tts.synthesize({ text: "Hello there.", voiceId: "" });
    expect(spoken.audio.equals(AUDIO)).toBe(true);
    expect(requests()).toBe(2);
  });

  it("gives up after the second drop, saying the provider could not be reached", async () => {
    const { tts, requests } = await speechServer(5);
    const failure = await tts.synthesize({ text: "Hello there.", voiceId: "" }).catch((e) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).message).toMatch(/^Could not reach ElevenLabs/);
    expect(requests()).toBe(2);
  });
});
