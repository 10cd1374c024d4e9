import type { ProductMessageKind } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { SynthesizedAudio } from "../../providers/tts/index.ts";
import type { AiNotices } from "../chat/ai-notice.ts";

/**
 * A live call is continuous use: its activity is recorded at its start and this often while it
 * lasts (well inside SITTING_GAP_MS), and sooner when a notice falls due, so the notice repeats
 * exactly 3 hours after the last one.
 */
export const CALL_HEARTBEAT_MS = 5 * 60_000;

/** A notice of a call: its text, and its speech in the persona's voice (under way or done). */
export interface SpokenNotice {
  kind: ProductMessageKind;
  text: string;
  audio: Promise<SynthesizedAudio>;
}

/**
 * The AI notice of one live call (issue 25; docs/decisions/0058-ai-notice-and-sittings.md): at
 * its start, then every 3 hours of continued use, with a break reminder after 3 hours of the
 * sitting. Each notice is stored (ai-notice.ts), synthesised with `speak` (the persona's voice,
 * outside the fan's caps: the notice is the product's) and handed to `say` (caption and audio).
 */
export class CallNotices {
  private cancelTimer: (() => void) | undefined;
  private stopped = false;
  private readonly speech = new AbortController();

  constructor(
    private readonly deps: {
      notices: Pick<AiNotices, "forCall" | "clock">;
      call: { id: string; userId: string };
      speak(text: string, signal: AbortSignal): Promise<SynthesizedAudio>;
      say(notice: SpokenNotice, signal: AbortSignal): void;
      log: FastifyBaseLogger;
    },
  ) {}

  /**
   * The call opens: its notices are stored and their speech made before the call answers
   * (so the fan hears them first), then the heartbeat starts. Answers them, to be said once
   * the client knows the call started.
   */
  async open(): Promise<SpokenNotice[]> {
    const notices = await this.give(true);
    await Promise.allSettled(notices.map((notice) => notice.audio));
    return notices;
  }

  /** Says notices (`open`'s): caption, then speech. */
  say(notices: SpokenNotice[]): void {
    for (const notice of notices) this.deps.say(notice, this.speech.signal);
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.speech.abort();
  }

  private async give(starts: boolean): Promise<SpokenNotice[]> {
    if (this.stopped) return [];
    const { notices, call, log } = this.deps;
    const clock = notices.clock;
    let nextDueAt = clock.now() + CALL_HEARTBEAT_MS;
    let given: SpokenNotice[] = [];
    try {
      const stored = await notices.forCall(call.userId, call.id, starts);
      nextDueAt = stored.nextDueAt;
      given = stored.messages.map((message) => {
        const audio = this.deps.speak(message.content, this.speech.signal);
        audio.catch((error: unknown) => {
          if (!this.speech.signal.aborted)
            log.error({ err: error }, "A call's notice was not spoken");
        });
        return { kind: message.productKind ?? "ai-notice", text: message.content, audio };
      });
    } catch (error) {
      log.error({ err: error, callId: call.id }, "Could not give a call's AI notice");
    }
    if (!this.stopped) {
      const delay = Math.max(0, Math.min(CALL_HEARTBEAT_MS, nextDueAt - clock.now()));
      this.cancelTimer = clock.setTimer(async () => this.say(await this.give(false)), delay);
    }
    return given;
  }
}
