import { sendMessageResponseSchema } from "@twinline/contracts";
import { type FakeOpenAi, makeWavTone } from "@twinline/fakes";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../../test/accounts.ts";
import type { TestApp } from "../../../test/create-test-app.ts";
import { signUpWithCredits } from "../../../test/credits.ts";
import { sentChatCompletions } from "../../../test/fake-providers.ts";
import { startVoiceTestApp, type VoiceTestApp } from "../../../test/voice-app.ts";
import { connectVoice } from "../../../test/voice-client.ts";
import { chatMessages, conversations, fanMemory } from "../../db/schema/index.ts";
import { VOICE_STYLE } from "./engine.ts";

// Issue 24 item 3 (memory 9a): a call's prompt had the recent history but not the recall and
// the summary chat has, so what the fan told the twin weeks ago in chat was unknown on the
// phone. The call's reply is built by the chat's prompt builder with the same memory.

const FACT = "My dog is called Biscuit and he loves the beach.";
const SUMMARY = "The fan is called Noor, lives in Leeds and plays the cello.";

let voice: VoiceTestApp;
let t: TestApp;
let openai: FakeOpenAi;

beforeAll(async () => {
  voice = await startVoiceTestApp();
  ({ t, openai } = voice);
  await t.app.settings.update({ freeMessagesPerDay: 1_000 });
});

afterAll(() => voice?.close());

/** The system text and turns of the last call reply's LLM request. */
function lastCallPrompt() {
  const sent = sentChatCompletions(openai)
    .filter((entry) => entry.messages[0]?.content.includes(VOICE_STYLE))
    .at(-1);
  if (!sent) throw new Error("No call reply was asked of the LLM");
  return { system: sent.messages[0]?.content ?? "", turns: sent.messages.slice(1) };
}

describe("a call remembers what the fan said in chat", () => {
  it("a fact told long ago, beyond the history window, and the fan's summary reach the call's LLM request", async () => {
    const fan = await signUpWithCredits(t, 100);
    const told = await call(t, "POST", "/api/chat/message", {
      token: fan.token,
      body: { message: FACT },
    });
    expect(told.statusCode, told.body).toBe(200);
    const { conversationId } = sendMessageResponseSchema.parse(told.json()).data;
    // Weeks of talk since: 80 newer messages, twice the call's history window.
    await t.app.database.db.execute(sql`
      insert into ${chatMessages} (conversation_id, user_id, sender, content, created_at)
      select ${conversationId}::uuid, ${fan.user.id}::uuid,
        (case when i % 2 = 0 then 'user' else 'ai' end)::chat_sender,
        'Filler number ' || i || ' about the weather.', now() + i * interval '1 second'
      from generate_series(1, 80) as i`);
    await t.app.database.db.execute(
      sql`update ${conversations} set last_message_at = now() + interval '2 minutes' where id = ${conversationId}::uuid`,
    );
    await t.app.database.db
      .insert(fanMemory)
      .values({ userId: fan.user.id, summary: SUMMARY })
      .onConflictDoUpdate({ target: fanMemory.userId, set: { summary: SUMMARY } });

    const client = await connectVoice(voice.origin, fan.token);
    await client.next("call_started");
    openai.transcription = "What is my dog called again?";
    client.socket.send(makeWavTone(1));
    await client.next("audio_complete");

    const prompt = lastCallPrompt();
    // Not in the history the call sends: it comes from recall.
    expect(prompt.turns.some((turn) => turn.content === FACT)).toBe(false);
    expect(prompt.turns.some((turn) => turn.content.startsWith("Filler"))).toBe(true);
    expect(prompt.system).toContain(FACT);
    expect(prompt.system).toContain(SUMMARY);

    client.sendJson({ type: "end" });
    await client.next("call_ended");
  });
});
