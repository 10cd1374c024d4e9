import { type FakeElevenLabs, type FakeOpenAi, makeWavTone } from "@twinline/fakes";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signUp } from "../../../test/accounts.ts";
import type { TestApp } from "../../../test/create-test-app.ts";
import { sentChatCompletions } from "../../../test/fake-providers.ts";
import { until } from "../../../test/until.ts";
import { startVoiceTestApp, type VoiceTestApp } from "../../../test/voice-app.ts";
import { connectVoice, type VoiceClient } from "../../../test/voice-client.ts";

// Eager end of turn (docs/decisions/0042-eager-end-of-turn.md): a candidate is answered at once
// but nothing of it reaches the fan before its commit; a cancel drops it and its work; a turn
// is answered and recorded once.

const REPLY = ["Hello there, it is lovely", " to hear you. I am doing", " great today!"];
const UTTERANCE = makeWavTone(1);

let voice: VoiceTestApp;
let t: TestApp;
let origin: string;
let openai: FakeOpenAi;
let elevenlabs: FakeElevenLabs;

beforeAll(async () => {
  voice = await startVoiceTestApp();
  ({ t, origin, openai, elevenlabs } = voice);
});

afterAll(() => voice?.close());

beforeEach(() => {
  openai.reply = [...REPLY];
  openai.gapMs = 0;
  openai.hang = false;
  openai.transcription = "Hello, can you hear me?";
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startCall(): Promise<VoiceClient> {
  const session = await signUp(t);
  const client = await connectVoice(origin, session.token);
  await client.next("call_started");
  return client;
}

function sendCandidate(client: VoiceClient, candidateId: string) {
  client.sendJson({ type: "candidate", candidateId });
  client.socket.send(UTTERANCE);
}

/** Everything the call sent after call_started, by kind. */
const sentAfterStart = (client: VoiceClient) =>
  client.received
    .map((entry) => (entry.kind === "json" ? entry.message.type : "audio"))
    .filter((type) => type !== "call_started");

const chatRequests = () => sentChatCompletions(openai);

const lastChatMessages = () => chatRequests().at(-1)?.messages ?? [];

async function hangUp(client: VoiceClient) {
  client.sendJson({ type: "end" });
  await client.closed;
}

describe("eager end of turn", () => {
  it("a candidate is answered at once, held until its commit, then sent whole and in order", async () => {
    const client = await startCall();
    const speechBefore = elevenlabs.speech.length;
    sendCandidate(client, "c1");
    // The whole reply is prepared (every sentence went to speech synthesis)…
    await until(() => elevenlabs.speech.length === speechBefore + 2, "the reply's speech");
    await sleep(300);
    // …and nothing of it reached the fan: no audio before the commit.
    expect(sentAfterStart(client)).toEqual([]);

    client.sendJson({ type: "commit", candidateId: "c1" });
    expect(await client.next("transcription")).toMatchObject({ text: "Hello, can you hear me?" });
    const start = await client.next("audio_start");
    expect((await client.next("response")).text).toBe(REPLY.join(""));
    expect(await client.next("audio_complete")).toMatchObject({
      replyId: start.replyId,
      segments: 2,
    });
    const order = sentAfterStart(client);
    expect(order[0]).toBe("transcription");
    expect([...order].sort()).toEqual(
      ["audio", "audio", "audio_complete", "audio_start", "response", "transcription"].sort(),
    );
    expect(order.indexOf("audio_start")).toBeLessThan(order.indexOf("audio"));
    expect(order.lastIndexOf("audio")).toBeLessThan(order.indexOf("audio_complete"));
    await hangUp(client);
  });

  it("a commit before the answer is ready lets it through as it comes", async () => {
    openai.gapMs = 150;
    const client = await startCall();
    sendCandidate(client, "c1");
    client.sendJson({ type: "commit", candidateId: "c1" });
    await client.next("transcription");
    await client.next("audio_start");
    await client.next("audio_complete");
    expect(client.audio()).toHaveLength(2);
    await hangUp(client);
  });

  it("a cancel aborts the candidate's work; the next candidate carries the whole utterance and is the only one answered and remembered", async () => {
    openai.reply = ["First sentence is here.", " Second one.", " Third one.", " Fourth."];
    openai.gapMs = 400;
    const client = await startCall();
    const cutBefore = openai.streamsCutShort;
    const chatsBefore = chatRequests().length;
    openai.transcription = "I was going to";
    sendCandidate(client, "c1");
    await until(() => chatRequests().length === chatsBefore + 1, "the candidate's LLM request");
    client.sendJson({ type: "cancel", candidateId: "c1" });
    // The provider saw the work go: the stream was aborted, not read to the end.
    await until(() => openai.streamsCutShort === cutBefore + 1, "the aborted LLM stream");
    // A commit of the cancelled candidate changes nothing.
    client.sendJson({ type: "commit", candidateId: "c1" });

    openai.reply = [...REPLY];
    openai.gapMs = 0;
    openai.transcription = "I was going to say hello";
    sendCandidate(client, "c2");
    client.sendJson({ type: "commit", candidateId: "c2" });
    await client.next("audio_complete");
    const heard = client.received.flatMap((entry) =>
      entry.kind === "json" && entry.message.type === "transcription" ? [entry.message.text] : [],
    );
    expect(heard).toEqual(["I was going to say hello"]);

    // The next turn's history holds the committed words once, and never the cancelled ones.
    openai.transcription = "And you?";
    sendCandidate(client, "c3");
    client.sendJson({ type: "commit", candidateId: "c3" });
    await client.next("audio_complete");
    expect(lastChatMessages().slice(1)).toEqual([
      { role: "user", content: "I was going to say hello" },
      { role: "assistant", content: REPLY.join("") },
      { role: "user", content: "And you?" },
    ]);
    await hangUp(client);
  });

  it("never answers the same words twice: a repeated commit, a replayed candidate id, a newer candidate replacing an older one", async () => {
    openai.gapMs = 100;
    const client = await startCall();
    const chatsBefore = chatRequests().length;
    sendCandidate(client, "old");
    await until(() => chatRequests().length === chatsBefore + 1, "the first candidate's LLM");
    // A newer candidate without a cancel replaces the older one.
    sendCandidate(client, "new");
    client.sendJson({ type: "commit", candidateId: "old" });
    client.sendJson({ type: "commit", candidateId: "new" });
    client.sendJson({ type: "commit", candidateId: "new" });
    await client.next("audio_complete");
    // A replayed id is not answered again.
    sendCandidate(client, "new");
    client.sendJson({ type: "commit", candidateId: "new" });
    await sleep(800);
    const types = sentAfterStart(client);
    expect(types.filter((type) => type === "transcription")).toHaveLength(1);
    expect(types.filter((type) => type === "response")).toHaveLength(1);
    expect(types.filter((type) => type === "audio_start")).toHaveLength(1);
    await hangUp(client);
  });

  it("a new candidate after a commit cuts the reply in progress: the fan went on speaking", async () => {
    openai.reply = ["First sentence is here.", " Second one follows now.", " Third one."];
    openai.gapMs = 400;
    const client = await startCall();
    sendCandidate(client, "c1");
    client.sendJson({ type: "commit", candidateId: "c1" });
    const first = await client.next("audio_start");
    sendCandidate(client, "c2");
    const complete = await client.next("audio_complete");
    expect(complete).toMatchObject({ replyId: first.replyId, interrupted: true });
    // The second candidate stays held until its own commit.
    await sleep(600);
    expect(sentAfterStart(client).filter((type) => type === "transcription")).toHaveLength(1);
    client.sendJson({ type: "commit", candidateId: "c2" });
    const second = await client.next("audio_start");
    expect(second.replyId).not.toBe(first.replyId);
    await hangUp(client);
  });
});
