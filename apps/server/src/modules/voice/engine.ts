import type { FastifyBaseLogger } from "fastify";
import type { Providers } from "../../providers/plugin.ts";
import type { Transcription } from "../../providers/stt/index.ts";
import { labelAiGenerated } from "../../providers/tts/ai-label.ts";
import type { SynthesizedAudio } from "../../providers/tts/index.ts";
import { buildChatRequest, type HistoryMessage } from "../chat/prompt.ts";
import type { MemorySource, PersonaSource } from "../chat/service.ts";
import { knowledgeFor } from "../chat/service.ts";
import type { SettingsService } from "../settings/service.ts";

/** Spoken replies are short: a call is a conversation, not an essay. */
export const VOICE_REPLY_MAX_TOKENS = 300;

/** Added to the admin's system prompt on a call: the reply is heard, not read. */
export const VOICE_STYLE =
  "You are talking on a live voice call: answer in a few short spoken sentences, with no lists, " +
  "markdown, emoji or links.";

/** What the persona says when speech is not transcribed (offline speech to text). */
export const offlineSpokenReply = (personaName: string) =>
  `Hi, I'm ${personaName}. I can't hear what you say right now, because speech is not ` +
  "transcribed in offline mode. Once a speech-to-text key is set, I will answer you properly. " +
  "Until then, you can write to me in the chat.";

export interface VoiceEngineDeps {
  providers: Pick<Providers, "stt" | "llm" | "tts" | "modes">;
  settings: Pick<SettingsService, "get">;
  persona: PersonaSource;
  log: FastifyBaseLogger;
  /** A turn's end of speech to its first audio out, in seconds (the metrics; first-audio.ts). */
  onFirstAudio?: ((seconds: number) => void) | undefined;
}

/**
 * The persona's voice: speech in (STT), the chat's LLM path (persona name, system prompt,
 * knowledge passages, history: chat/prompt.ts buildChatRequest), speech out (TTS). Providers
 * are resolved per use, so a key the admin saves applies to the next utterance.
 */
export function createVoiceEngine(deps: VoiceEngineDeps) {
  const { providers, settings, persona, log } = deps;

  const passagesFor = (message: string) => knowledgeFor(persona, message, log);

  return {
    onFirstAudio: deps.onFirstAudio,

    async personaName(): Promise<string> {
      return (await settings.get()).aiProfile.name;
    },

    /** Which STT and TTS run now (the call's first message tells the client). */
    async modes() {
      return providers.modes();
    },

    /**
     * What the fan said; `punctuated` when the recogniser writes sentence ends (Whisper does,
     * pocketsphinx never does), so a missing end means the fan is not done (unfinished.ts).
     */
    async transcribe(
      audio: Buffer,
      signal: AbortSignal,
    ): Promise<Transcription & { punctuated: boolean }> {
      const stt = await providers.stt();
      return { ...(await stt.transcribe({ audio, signal })), punctuated: stt.mode === "openai" };
    },

    /**
     * The reply's text as the LLM streams it; `memory`: what the persona recalls of the fan;
     * `allowed`: the caps' answer (cappedEngine), asked while the prompt is read and awaited
     * before the LLM is asked, so a refusal still reaches no provider.
     */
    async *streamReply(
      message: string,
      history: HistoryMessage[],
      signal: AbortSignal,
      memory?: FanMemory,
      allowed?: Promise<void>,
    ): AsyncGenerator<string> {
      const [current, systemPrompt, passages] = await Promise.all([
        settings.get(),
        persona.systemPrompt(),
        passagesFor(message),
      ]);
      const request = buildChatRequest({
        personaName: current.aiProfile.name,
        systemPrompt: [systemPrompt.trim(), VOICE_STYLE].filter(Boolean).join("\n\n"),
        passages,
        memory,
        history,
        message,
      });
      await allowed;
      const llm = await providers.llm();
      for await (const piece of llm.streamChat({
        ...request,
        signal,
        maxTokens: VOICE_REPLY_MAX_TOKENS,
      })) {
        if (signal.aborted) return;
        yield piece;
      }
    },

    /** The whole reply to one message (POST /api/voice-call/process). */
    async answer(message: string, signal: AbortSignal): Promise<string> {
      let text = "";
      for await (const piece of this.streamReply(message, [], signal)) text += piece;
      return text.trim();
    },

    /**
     * A reply's speech is all asked for (every sentence passed to `speak`): the caps give back
     * what they counted ahead and it did not use (spend.ts cappedEngine); nothing here.
     */
    async settle(): Promise<void> {},

    /** The text in the persona's voice, the file marked as AI-generated speech (ai-label.ts). */
    async speak(
      text: string,
      voiceId: string | null,
      signal: AbortSignal,
    ): Promise<SynthesizedAudio> {
      const [tts, current] = await Promise.all([providers.tts(), settings.get()]);
      return labelAiGenerated(await tts.synthesize({ text, voiceId, signal }), current.siteName);
    },
  };
}

export type VoiceEngine = ReturnType<typeof createVoiceEngine>;

/** What the persona remembers of a fan for one message (MemorySource.recall's answer). */
export type FanMemory = Awaited<ReturnType<MemorySource["recall"]>>;

/**
 * The engine of one fan's call with the chat's long-term memory: each reply's prompt gets the
 * fan's summary and their own earlier words matching the message (the history window left out),
 * as a chat reply does (docs/decisions/0044-memory-and-prompt-budget.md). Recall trouble costs
 * the memory, not the reply.
 */
export function rememberingEngine(
  engine: VoiceEngine,
  userId: string,
  memory: Pick<MemorySource, "recall">,
  log: FastifyBaseLogger,
): VoiceEngine {
  return {
    ...engine,
    async *streamReply(
      message,
      history: Array<HistoryMessage & { id?: string }>,
      signal,
      _memory,
      allowed,
    ) {
      const window = history.flatMap((entry) => (entry.id ? [entry.id] : []));
      let recalled: FanMemory | undefined;
      try {
        recalled = await memory.recall(userId, message, window);
      } catch (error) {
        log.warn({ err: error }, "Recall failed; the call answers without memory");
      }
      yield* engine.streamReply(message, history, signal, recalled, allowed);
    },
  };
}
