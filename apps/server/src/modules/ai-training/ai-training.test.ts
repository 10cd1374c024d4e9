import type { FakeHttpServer } from "@twinline/fakes";
import { CLONED_VOICE_ID, FAKE_ELEVENLABS_KEY, startFakeElevenLabs } from "@twinline/fakes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { pdfWithText, upload, wavFile } from "../../../test/multipart.ts";
import { findRelevantPassages } from "./retrieval.ts";
import { AI_TRAINING_MESSAGES } from "./service.ts";

const FILLER =
  "The studio sessions ran late into the evening while the band rehearsed new material.";

describe("AI training", () => {
  let t: TestApp;
  let elevenLabs: FakeHttpServer;
  let admin: string;

  beforeAll(async () => {
    elevenLabs = await startFakeElevenLabs();
    t = await createTestApp({
      env: { ELEVENLABS_BASE_URL: elevenLabs.origin },
      uploadLimits: { knowledgeDocumentBytes: 16 * 1024, voiceSampleBytes: 8 * 1024 },
    });
    admin = (await adminSession(t)).token;
  });
  afterAll(async () => {
    await t?.close();
    await elevenLabs?.close();
  });

  const training = async () =>
    (await call(t, "GET", "/api/ai-training", { token: admin })).json().data;

  it("starts empty and saves the system prompt", async () => {
    expect(await training()).toEqual({
      systemPrompt: "",
      knowledgeDocuments: [],
      voiceSample: null,
      voiceId: null,
    });
    const saved = await call(t, "PUT", "/api/ai-training/system-prompt", {
      token: admin,
      body: { systemPrompt: "You are warm and witty." },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.systemPrompt).toBe("You are warm and witty.");
  });

  it("indexes a PDF's text, ranks the right passage first, deletes passages with it", async () => {
    const pdf = pdfWithText([
      [FILLER, FILLER, "Nova grew up in Lisbon, Portugal, near the river.", FILLER],
      [FILLER, "Her favourite food is grilled sardines with bread.", FILLER, FILLER],
    ]);
    const response = await upload(t, "/api/ai-training/knowledge-documents", admin, [
      {
        field: "documents",
        filename: "Nova biography.pdf",
        content: pdf,
        contentType: "application/pdf",
      },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const document = response.json().data;
    expect(response.json().message).toBe(AI_TRAINING_MESSAGES.documentUploaded);
    expect(document).toMatchObject({ originalName: "Nova biography.pdf", size: pdf.length });
    expect(document.passages).toBeGreaterThanOrEqual(1);
    expect((await training()).knowledgeDocuments).toEqual([document]);

    const db = t.app.database.db;
    const hits = await findRelevantPassages(db, "What food do you like? sardines", 4);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]?.content).toContain("grilled sardines");
    expect(hits[0]).toMatchObject({ documentId: document._id, documentName: "Nova biography.pdf" });
    // A partial match still ranks (the terms are OR-ed); stop words alone find nothing.
    expect((await findRelevantPassages(db, "Lisbon weather"))[0]?.content).toContain("Lisbon");
    expect(await findRelevantPassages(db, "the and of")).toEqual([]);
    expect(await findRelevantPassages(db, "  ")).toEqual([]);

    const removed = await call(
      t,
      "DELETE",
      `/api/ai-training/knowledge-documents/${document._id}`,
      { token: admin },
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await findRelevantPassages(db, "sardines")).toEqual([]);
    expect((await training()).knowledgeDocuments).toEqual([]);
    const again = await call(t, "DELETE", `/api/ai-training/knowledge-documents/${document._id}`, {
      token: admin,
    });
    expect(again.statusCode).toBe(404);
  });

  it("refuses a PDF without text, a corrupt PDF, not-a-PDF, an oversized one and a path", async () => {
    const refuse = async (filename: string, content: Buffer | string, pattern: RegExp) => {
      const response = await upload(t, "/api/ai-training/knowledge-documents", admin, [
        { field: "documents", filename, content },
      ]);
      expect(response.statusCode, response.body).toBe(400);
      expect(messageOf(response)).toMatch(pattern);
    };
    await refuse("scan.pdf", pdfWithText([[]]), /^This PDF has no extractable text$/);
    await refuse("broken.pdf", "%PDF-1.4\nthis is not really a pdf", /could not be read as a PDF/);
    await refuse("notes.pdf", "plain text notes", /Only PDF files/);
    await refuse(
      "big.pdf",
      Buffer.concat([pdfWithText([["x"]]), Buffer.alloc(17 * 1024)]),
      /^File is too large \(max 50 MB\)$/,
    );
    await refuse("../evil.pdf", pdfWithText([["x"]]), /must not contain a path/);
    expect((await training()).knowledgeDocuments).toEqual([]);
  });

  it("takes a voice sample by content, replaces the earlier one, streams it with ranges", async () => {
    const wav = wavFile(800);
    const first = await upload(t, "/api/ai-training/voice-sample", admin, [
      { field: "voiceSample", filename: "sample.wav", content: wav, contentType: "audio/wav" },
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({
      originalName: "sample.wav",
      size: wav.length,
      path: "/api/ai-training/voice-sample/audio",
    });
    const firstName = first.json().data.filename;
    const second = await upload(t, "/api/ai-training/voice-sample", admin, [
      { field: "voiceSample", filename: "take2.wav", content: wav },
    ]);
    expect(second.statusCode).toBe(200);
    expect(await t.app.uploads.privateFiles.stat(firstName)).toBeUndefined();

    const audio = await call(t, "GET", "/api/ai-training/voice-sample/audio", { token: admin });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers["content-type"]).toBe("audio/wav");
    expect(audio.rawPayload.equals(wav)).toBe(true);
    const part = await call(t, "GET", "/api/ai-training/voice-sample/audio", {
      token: admin,
      headers: { range: "bytes=0-3" },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 0-3/${wav.length}`);
    expect(part.body).toBe("RIFF");

    const text = await upload(t, "/api/ai-training/voice-sample", admin, [
      { field: "voiceSample", filename: "voice.mp3", content: "not audio at all" },
    ]);
    expect(text.statusCode).toBe(400);
    expect(messageOf(text)).toBe(AI_TRAINING_MESSAGES.voiceSampleType);
    const big = await upload(t, "/api/ai-training/voice-sample", admin, [
      { field: "voiceSample", filename: "long.wav", content: wavFile(5000) },
    ]);
    expect(big.statusCode).toBe(400);
    expect(messageOf(big)).toBe(AI_TRAINING_MESSAGES.voiceSampleTooLarge);
  });

  it("sets the voice id and clones a voice through ElevenLabs from the stored sample", async () => {
    const set = await call(t, "PUT", "/api/ai-training/voice-id", {
      token: admin,
      body: { voiceId: "abc_123" },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual({ voiceId: "abc_123" });
    expect(
      (
        await call(t, "PUT", "/api/ai-training/voice-id", {
          token: admin,
          body: { voiceId: "a b" },
        })
      ).statusCode,
    ).toBe(400);
    // An emptied voice id saves as none.
    const cleared = await call(t, "PUT", "/api/ai-training/voice-id", {
      token: admin,
      body: { voiceId: "  " },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data).toEqual({ voiceId: null });
    expect((await call(t, "GET", "/api/ai-training", { token: admin })).json().data.voiceId).toBe(
      null,
    );

    // Offline TTS cannot clone.
    const offline = await call(t, "POST", "/api/ai-training/generate-voice-clone", {
      token: admin,
      body: { name: "Nova", description: "warm" },
    });
    expect(offline.statusCode).toBe(400);
    expect(messageOf(offline)).toMatch(/ElevenLabs API key/);

    await t.app.providerKeys.write({ elevenLabs: FAKE_ELEVENLABS_KEY });
    const cloned = await call(t, "POST", "/api/ai-training/generate-voice-clone", {
      token: admin,
      body: { name: "Nova", description: "warm" },
    });
    expect(cloned.statusCode, cloned.body).toBe(200);
    expect(cloned.json().data).toEqual({ voiceId: CLONED_VOICE_ID });
    expect((await training()).voiceId).toBe(CLONED_VOICE_ID);
    const sent = elevenLabs.requests.find((r) => r.path === "/v1/voices/add");
    expect(sent?.headers["xi-api-key"]).toBe(FAKE_ELEVENLABS_KEY);
    // The multipart body carries the sample's bytes.
    expect(sent?.body.includes(Buffer.from("RIFF"))).toBe(true);
    expect(sent?.body.toString("latin1")).toContain("Nova");
  });

  it("asks for a sample before cloning", async () => {
    const fresh = await createTestApp();
    try {
      const token = (await adminSession(fresh)).token;
      const response = await call(fresh, "POST", "/api/ai-training/generate-voice-clone", {
        token,
        body: { name: "Nova", description: "" },
      });
      expect(response.statusCode).toBe(400);
      expect(messageOf(response)).toBe("Please upload a voice sample first");
    } finally {
      await fresh.close();
    }
  });
});
