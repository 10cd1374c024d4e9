import { FAKE_OPENAI_KEY, type FakeOpenAi, startFakeOpenAi } from "@twinline/fakes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { pdfWithText, upload } from "../../../test/multipart.ts";
import { onLocalAiTrainingChange } from "./changes.ts";
import { type CachedPersona, createCachedPersona } from "./persona.ts";
import { createAiTrainingRepository } from "./repository.ts";

const FILLER =
  "The studio sessions ran late into the evening while the band rehearsed new material.";
const SARDINES = "Her favourite food is grilled sardines with bread.";

/** The system text of the fake provider's last chat request. */
function lastSystemText(fake: FakeOpenAi): string {
  const request = fake.requests.filter((r) => r.path === "/v1/chat/completions").at(-1);
  const body = JSON.parse(request?.body.toString() ?? "{}") as {
    messages?: Array<{ role: string; content: string }>;
  };
  return body.messages?.[0]?.content ?? "";
}

async function sendAndReadSystem(t: TestApp, fake: FakeOpenAi, token: string, message: string) {
  const response = await call(t, "POST", "/api/chat/message", { token, body: { message } });
  expect(response.statusCode, response.body).toBe(200);
  return lastSystemText(fake);
}

const setSystemPrompt = async (t: TestApp, admin: string, systemPrompt: string) => {
  const response = await call(t, "PUT", "/api/ai-training/system-prompt", {
    token: admin,
    body: { systemPrompt },
  });
  expect(response.statusCode, response.body).toBe(200);
};

const uploadBiography = async (t: TestApp, admin: string): Promise<string> => {
  const response = await upload(t, "/api/ai-training/knowledge-documents", admin, [
    {
      field: "documents",
      filename: "biography.pdf",
      content: pdfWithText([[FILLER, SARDINES, FILLER]]),
      contentType: "application/pdf",
    },
  ]);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data._id;
};

const deleteDocument = async (t: TestApp, admin: string, id: string) => {
  const response = await call(t, "DELETE", `/api/ai-training/knowledge-documents/${id}`, {
    token: admin,
  });
  expect(response.statusCode, response.body).toBe(200);
};

describe("the chat's cached persona", () => {
  let t: TestApp;
  let fake: FakeOpenAi;
  let admin: string;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await createTestApp({
      env: { OPENAI_API_KEY: FAKE_OPENAI_KEY, OPENAI_BASE_URL: fake.baseUrl },
    });
    await t.app.settings.update({ freeMessagesPerDay: 1_000 });
    admin = (await adminSession(t)).token;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it("a saved system prompt reaches the very next send (the cached one is dropped at once)", async () => {
    const { token } = await signUp(t);
    await setSystemPrompt(t, admin, "Be warm and brief.");
    expect(await sendAndReadSystem(t, fake, token, "Hello there")).toContain("Be warm and brief.");
    // Served from the cache now, which the next save must not leave stale.
    expect(await sendAndReadSystem(t, fake, token, "Hello again")).toContain("Be warm and brief.");
    await setSystemPrompt(t, admin, "Speak like a pirate.");
    const system = await sendAndReadSystem(t, fake, token, "And now?");
    expect(system).toContain("Speak like a pirate.");
    expect(system).not.toContain("Be warm and brief.");
    await setSystemPrompt(t, admin, "");
    expect(await sendAndReadSystem(t, fake, token, "Anyone?")).not.toContain("pirate");
  });

  it("a document's passages reach the next send once uploaded, and are gone once deleted", async () => {
    const { token } = await signUp(t);
    expect(await sendAndReadSystem(t, fake, token, "Do you like sardines?")).not.toContain(
      "grilled sardines",
    );
    const id = await uploadBiography(t, admin);
    expect(await sendAndReadSystem(t, fake, token, "Do you like sardines?")).toContain(
      "grilled sardines",
    );
    await deleteDocument(t, admin, id);
    expect(await sendAndReadSystem(t, fake, token, "Do you like sardines?")).not.toContain(
      "grilled sardines",
    );
  });

  describe("retrieval only when there are passages", () => {
    let persona: CachedPersona;
    let stop: () => void;
    const questions: string[] = [];

    beforeAll(() => {
      const db = t.app.database.db;
      persona = createCachedPersona({
        db,
        retrieve: async (question) => {
          questions.push(question);
          return [`passage for ${question}`];
        },
      });
      stop = onLocalAiTrainingChange(db, () => persona.invalidate());
    });
    afterAll(() => stop?.());

    it("asks nothing of the retrieval while no passage exists, and asks it once one does", async () => {
      expect(await persona.passages("sardines", 4)).toEqual([]);
      expect(questions).toEqual([]);

      const id = await uploadBiography(t, admin);
      expect((await persona.snapshot()).hasPassages).toBe(true);
      expect(await persona.passages("sardines", 4)).toEqual(["passage for sardines"]);
      expect(questions).toEqual(["sardines"]);

      await deleteDocument(t, admin, id);
      expect((await persona.snapshot()).hasPassages).toBe(false);
      expect(await persona.passages("sardines again", 4)).toEqual([]);
      expect(questions).toEqual(["sardines"]);
    });

    it("every AI training write drops the cached copy, whichever repository made it", async () => {
      const repository = createAiTrainingRepository(t.app.database.db);
      const first = await persona.snapshot();
      expect(await persona.snapshot()).toBe(first); // served from memory
      await repository.setVoiceId("voice-1");
      const afterVoice = await persona.snapshot();
      expect(afterVoice).not.toBe(first);
      await repository.setSystemPrompt("From another repository");
      expect((await persona.snapshot()).systemPrompt).toBe("From another repository");
      await repository.setSystemPrompt("");
    });
  });
});

describe.runIf(process.env.TWINLINE_TEST_DB === "postgres")(
  "the cached persona across instances on one PostgreSQL",
  () => {
    it("a write on one instance reaches the cached persona of another (LISTEN/NOTIFY)", async () => {
      const fake = await startFakeOpenAi();
      const first = await createTestApp();
      const second = await createTestApp({
        sameDatabaseAs: first,
        env: { OPENAI_API_KEY: FAKE_OPENAI_KEY, OPENAI_BASE_URL: fake.baseUrl },
      });
      try {
        await first.app.settings.update({ freeMessagesPerDay: 1_000 });
        const admin = (await adminSession(first)).token;
        const { token } = await signUp(second);
        // The second instance caches the empty prompt and the absence of passages.
        const before = await sendAndReadSystem(second, fake, token, "Sardines?");
        expect(before).not.toContain("Changed elsewhere");
        expect(before).not.toContain("grilled sardines");

        await setSystemPrompt(first, admin, "Changed elsewhere.");
        await expect
          .poll(() => sendAndReadSystem(second, fake, token, "Sardines?"), { timeout: 5_000 })
          .toContain("Changed elsewhere.");

        const id = await uploadBiography(first, admin);
        await expect
          .poll(() => sendAndReadSystem(second, fake, token, "Sardines?"), { timeout: 5_000 })
          .toContain("grilled sardines");

        await deleteDocument(first, admin, id);
        await expect
          .poll(() => sendAndReadSystem(second, fake, token, "Sardines?"), { timeout: 5_000 })
          .not.toContain("grilled sardines");
      } finally {
        await second.close();
        await first.close();
        await fake.close();
      }
    });
  },
);
