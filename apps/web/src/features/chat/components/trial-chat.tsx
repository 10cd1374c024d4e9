import { type ChatMessage, type CrisisResource, routes } from "@twinline/contracts";
import { useEffect, useRef, useState } from "react";
import { useSettings } from "@/lib/settings";
import { ChatStreamError, sendChatMessage } from "../api/chat";
import { fetchTrial, trialRefusal } from "../api/trial";
import type { DisplayMessage } from "../hooks/use-chat";
import { CHAT_TEXT } from "../messages";
import { Composer } from "./composer";
import { CrisisMessage, CrisisResourcesPanel } from "./crisis-support";
import { MessageBubble, TypingIndicator } from "./message-bubble";
import { ProductNotice } from "./product-notice";

export const TRIAL_TEXT = {
  title: (name: string) => `Chat with ${name}`,
  left: (n: number) => `${n} free ${n === 1 ? "message" : "messages"} left without an account`,
  usedUp: "You have used your free messages. Sign up to keep chatting.",
  signUp: "Sign up to keep chatting",
  conversation: (name: string) => `Conversation with ${name}`,
  loading: "Loading…",
  failedLoad: "The chat could not be loaded. Please try again later.",
} as const;

export interface TrialChatProps {
  /** The allowance is used up (or the server refused for a cap): offer the sign-up. */
  onAllowanceUsed: () => void;
  /** Focus the message box when the chat appears (it was opened by the visitor). */
  autoFocus?: boolean;
}

const toDisplay = (message: ChatMessage): DisplayMessage => ({
  key: message._id,
  sender: message.sender,
  productKind: message.productKind ?? null,
  content: message.content,
  timestamp: message.timestamp,
});

/**
 * The anonymous trial chat (issue 27 item 1; decision 0084): the member chat's bubbles, notices,
 * crisis card and message box over GET /api/trial and POST /api/trial/message, for a visitor
 * without an account. It depends on nothing of the landing page, so the embed page (issue 27
 * item 5) shows the same component.
 */
export function TrialChat({ onAllowanceUsed, autoFocus = false }: TrialChatProps) {
  const { settings } = useSettings();
  const persona = settings.aiProfile;
  const [state, setState] = useState<"loading" | "ready" | "error">("loading");
  const [messages, setMessages] = useState<DisplayMessage[]>([]);
  const [remaining, setRemaining] = useState(0);
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [resources, setResources] = useState<readonly CrisisResource[] | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const usedRef = useRef(onAllowanceUsed);
  usedRef.current = onAllowanceUsed;

  useEffect(() => {
    const controller = new AbortController();
    fetchTrial(controller.signal).then(
      (trial) => {
        setMessages(trial.messages.map(toDisplay));
        setRemaining(trial.remaining);
        setState("ready");
      },
      () => {
        if (!controller.signal.aborted) setState("error");
      },
    );
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (state === "ready" && autoFocus) textarea.current?.focus();
  }, [state, autoFocus]);

  const send = async () => {
    const message = draft.trim();
    if (!message || busy) return;
    setBusy(true);
    setDraft("");
    const mine: DisplayMessage = {
      key: `mine-${Date.now()}`,
      sender: "user",
      content: message,
      state: "sending",
    };
    const replyKey = `reply-${Date.now()}`;
    setMessages((list) => [...list, mine]);
    let streamed = "";
    try {
      const result = await sendChatMessage({
        route: routes.trial.message,
        message,
        onNotice: (notice) => setMessages((list) => [...list, toDisplay(notice)]),
        onToken: (text) => {
          streamed += text;
          setMessages((list) => [
            ...list.filter((entry) => entry.key !== replyKey),
            { key: replyKey, sender: "ai", content: streamed, state: "streaming" },
          ]);
        },
      });
      // In place: the visitor's message, the notices given with it, then the reply.
      setMessages((list) => [
        ...list
          .filter((entry) => entry.key !== replyKey)
          .map((entry) => (entry.key === mine.key ? toDisplay(result.userMessage) : entry)),
        toDisplay(result.aiMessage),
      ]);
      if (result.crisis) setResources(result.crisis.resources);
      const left = typeof result.remaining === "number" ? result.remaining : 0;
      setRemaining(left);
      if (left === 0) usedRef.current();
    } catch (error) {
      const refused = trialRefusal(error);
      setMessages((list) =>
        list
          .filter((entry) => entry.key !== replyKey)
          .map((entry) =>
            entry.key === mine.key ? { ...entry, state: "failed" as const } : entry,
          ),
      );
      if (refused) {
        setRefusal(refused.message);
        setRemaining(0);
        usedRef.current();
      } else {
        setDraft(error instanceof ChatStreamError ? "" : message);
        setRefusal(CHAT_TEXT.failedAiResponse);
      }
    } finally {
      setBusy(false);
    }
  };

  const usedUp = state === "ready" && remaining === 0;
  return (
    <section
      aria-labelledby="trial-chat-title"
      className="flex max-h-[32rem] min-h-72 flex-col overflow-hidden rounded-3xl border border-stone-200 bg-white shadow-xl dark:border-white/10 dark:bg-stone-900"
      data-testid="trial-chat"
    >
      <header className="flex items-center justify-between gap-2 border-b border-stone-200 px-4 py-3 dark:border-white/10">
        <h2 id="trial-chat-title" className="font-semibold text-stone-900 dark:text-white">
          {TRIAL_TEXT.title(persona.name)}
        </h2>
        {state === "ready" && !usedUp ? (
          <p className="text-xs text-stone-600 dark:text-stone-300" data-testid="trial-remaining">
            {TRIAL_TEXT.left(remaining)}
          </p>
        ) : null}
      </header>
      {/* Focusable: a keyboard can scroll the conversation (axe: scrollable-region-focusable). */}
      <section
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus
        tabIndex={0}
        aria-label={TRIAL_TEXT.conversation(persona.name)}
        className="min-h-0 flex-1 overflow-y-auto px-3 py-4 focus-visible:outline-2 focus-visible:outline-brand-500 sm:px-4"
      >
        {state === "loading" ? (
          <p className="text-sm text-stone-600">{TRIAL_TEXT.loading}</p>
        ) : null}
        {state === "error" ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {TRIAL_TEXT.failedLoad}
          </p>
        ) : null}
        <div role="log" aria-live="polite" aria-label={TRIAL_TEXT.title(persona.name)}>
          <ol className="flex flex-col gap-3">
            {messages.map((message) =>
              message.productKind === "crisis-support" ? (
                <CrisisMessage
                  key={message.key}
                  content={message.content}
                  timestamp={message.timestamp}
                />
              ) : message.sender === "product" ? (
                <ProductNotice key={message.key} message={message} />
              ) : (
                <MessageBubble
                  key={message.key}
                  message={message}
                  personaName={persona.name}
                  personaImage={persona.aiProfileImage}
                  onSubscribe={onAllowanceUsed}
                />
              ),
            )}
            {busy && !messages.some((m) => m.state === "streaming") ? (
              <TypingIndicator personaName={persona.name} personaImage={persona.aiProfileImage} />
            ) : null}
          </ol>
        </div>
      </section>
      {resources ? <CrisisResourcesPanel resources={resources} /> : null}
      {refusal && !usedUp ? (
        <p role="alert" className="px-4 pb-2 text-sm text-red-700 dark:text-red-300">
          {refusal}
        </p>
      ) : null}
      {usedUp ? (
        <div className="border-t border-stone-200 p-4 text-center dark:border-white/10">
          <p className="mb-3 text-sm text-stone-700 dark:text-stone-200">
            {refusal ?? TRIAL_TEXT.usedUp}
          </p>
          <button
            type="button"
            onClick={onAllowanceUsed}
            className="rounded-full bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2"
          >
            {TRIAL_TEXT.signUp}
          </button>
        </div>
      ) : state === "ready" ? (
        <Composer
          value={draft}
          onChange={setDraft}
          onSend={() => void send()}
          maxWords={settings.maxWordsPerMessage}
          busy={busy}
          personaName={persona.name}
          textareaRef={textarea}
        />
      ) : null}
    </section>
  );
}
