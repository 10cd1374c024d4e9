import { callDetailResponseSchema } from "@twinline/contracts";
import { type FakeElevenLabs, type FakeOpenAi, makeWavTone } from "@twinline/fakes";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, signUp } from "../../../test/accounts.ts";
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
  return (await startTrackedCall()).client;
}

async function startTrackedCall() {
  const session = await signUp(t);
  const client = await connectVoice(origin, session.token);
  const { callId } = await client.next("call_started");
  return { client, callId, token: session.token };
}

/** The call's stored turns (GET /api/voice-call/calls/{id}), as [sender, words]. */
async function storedTurns(token: string, callId: string) {
  const response = await call(t, "GET", `/api/voice-call/calls/${callId}`, { token });
  expect(response.statusCode, response.body).toBe(200);
  // The fan's and the persona's turns (the product's AI notice is tested in voice.notice.test.ts).
  return callDetailResponseSchema
    .parse(response.json())
    .transcript.filter((turn) => turn.sender !== "product")
    .map((turn) => [turn.sender, turn.content]);
}

function sendCandidate(client: VoiceClient, candidateId: string) {
  client.sendJson({ type: "candidate", candidateId });
  client.socket.send(UTTERANCE);
}

/**
 * Everything the call sent after call_started, by kind; candidate_heard (when a candidate was
 * transcribed, sent at once to time the commit) is not part of the answer.
 */
const sentAfterStart = (client: VoiceClient) =>
  client.received
    .map((entry) => (entry.kind === "json" ? entry.message.type : "audio"))
    .filter((type) => type !== "call_started" && type !== "candidate_heard");

const responsesOf = (client: VoiceClient) =>
  client.received.flatMap((entry) =>
    entry.kind === "json" && entry.message.type === "response" ? [entry.message.text] : [],
  );

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

  it("says at once whether a candidate's words are unfinished, before its commit", async () => {
    const client = await startCall();
    openai.transcription = "I was thinking about";
    sendCandidate(client, "c1");
    expect(await client.next("candidate_heard")).toEqual({
      type: "candidate_heard",
      candidateId: "c1",
      unfinished: true,
    });
    // The answer itself is still held.
    expect(sentAfterStart(client)).toEqual([]);
    client.sendJson({ type: "cancel", candidateId: "c1" });
    openai.transcription = "I was thinking about going to the beach tomorrow.";
    sendCandidate(client, "c2");
    expect(await client.next("candidate_heard")).toMatchObject({
      candidateId: "c2",
      unfinished: false,
    });
    await hangUp(client);
  });

  it("a continuation right after a commit is one turn: the fragment's answer is dropped and never stored, the whole is answered once", async () => {
    openai.reply = ["First sentence is here.", " Second one follows now.", " Third one."];
    openai.gapMs = 400;
    const { client, callId, token } = await startTrackedCall();
    const cutBefore = openai.streamsCutShort;
    const chatsBefore = chatRequests().length;
    openai.transcription = "I was thinking about";
    sendCandidate(client, "c1");
    await client.next("candidate_heard");
    await until(() => chatRequests().length === chatsBefore + 1, "the fragment's LLM request");
    // The pause outlasted the wait: the fragment is committed and its answer starts coming…
    client.sendJson({ type: "commit", candidateId: "c1" });
    await client.next("transcription");
    // …and the fan goes on speaking: the client cancels the candidate it just committed.
    client.sendJson({ type: "cancel", candidateId: "c1" });
    await until(() => openai.streamsCutShort === cutBefore + 1, "the fragment's LLM stream cut");

    openai.reply = [...REPLY];
    openai.gapMs = 0;
    openai.transcription = "I was thinking about going to the beach tomorrow.";
    sendCandidate(client, "c2");
    client.sendJson({ type: "commit", candidateId: "c2" });
    await client.next("audio_complete");
    expect(responsesOf(client)).toEqual([REPLY.join("")]);
    // The next reply's history holds the whole turn once, never the fragment.
    openai.transcription = "What do you think?";
    sendCandidate(client, "c3");
    client.sendJson({ type: "commit", candidateId: "c3" });
    await client.next("audio_complete");
    expect(lastChatMessages().slice(1)).toEqual([
      { role: "user", content: "I was thinking about going to the beach tomorrow." },
      { role: "assistant", content: REPLY.join("") },
      { role: "user", content: "What do you think?" },
    ]);
    await hangUp(client);
    expect(await storedTurns(token, callId)).toEqual([
      ["user", "I was thinking about going to the beach tomorrow."],
      ["ai", REPLY.join("")],
      ["user", "What do you think?"],
      ["ai", REPLY.join("")],
    ]);
  });

  it("a cancel long after the commit changes nothing: the turn was heard and is kept", async () => {
    openai.reply = [...REPLY];
    const { client, callId, token } = await startTrackedCall();
    openai.transcription = "Tell me a story.";
    sendCandidate(client, "c1");
    client.sendJson({ type: "commit", candidateId: "c1" });
    await client.next("audio_complete");
    // The turn is stored once the fan could no longer be continuing it.
    await until(async () => (await storedTurns(token, callId)).length === 2, "the stored turn");
    client.sendJson({ type: "cancel", candidateId: "c1" });
    await hangUp(client);
    expect(await storedTurns(token, callId)).toEqual([
      ["user", "Tell me a story."],
      ["ai", REPLY.join("")],
    ]);
  });
});
