import { LoaderCircle, MessageCircle, Trash2 } from "lucide-react";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import toast from "react-hot-toast";
import { AiMarker } from "@/components/ui/ai-marker";
import { buttonClasses } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/load-states";
import { UserAvatar } from "@/components/ui/user-avatar";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useSettings } from "@/lib/settings";
import { useChat } from "../hooks/use-chat";
import { CHAT_TEXT, LOAD_OLDER_THRESHOLD_PX } from "../messages";
import { CallBlock, groupCalls } from "./call-block";
import { ClearChatDialog } from "./clear-chat-dialog";
import { Composer } from "./composer";
import { CrisisMessage, CrisisResourcesPanel, useCrisisPin } from "./crisis-support";
import { MessageBubble, TypingIndicator } from "./message-bubble";
import { ProductNotice } from "./product-notice";

/** Within this distance of the bottom the list follows new messages. */
const STICK_TO_BOTTOM_PX = 80;

export interface ChatPageProps {
  /**
   * The Subscribe action of the daily-limit toast and bubble. The billing issue passes one that
   * opens the subscription dialog (docs/decisions/0009-chat-screen.md).
   */
  onSubscribe: () => void;
}

function limitToast(dailyLimit: number, onSubscribe: () => void) {
  toast.error(
    (t) => (
      <span className="flex flex-col items-start gap-2">
        <span>
          <strong className="block">{CHAT_TEXT.limitToastTitle}</strong>
          {CHAT_TEXT.limitToastBody(dailyLimit)}
        </span>
        <button
          type="button"
          onClick={() => {
            toast.dismiss(t.id);
            onSubscribe();
          }}
          className="rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white hover:bg-brand-700"
        >
          {CHAT_TEXT.subscribe}
        </button>
      </span>
    ),
    { id: "chat-message-limit" },
  );
}

/** `/dashboard/chat`: the persona's header, the message log and the message box. */
export function ChatPage({ onSubscribe }: ChatPageProps) {
  const { settings } = useSettings();
  const persona = settings.aiProfile;
  const onLimit = useCallback(
    (dailyLimit: number) => limitToast(dailyLimit, onSubscribe),
    [onSubscribe],
  );
  const chat = useChat({ fallbackDailyLimit: settings.freeMessagesPerDay, onLimit });
  const [text, setText] = useState("");
  const [confirmClear, setConfirmClear] = useState(false);
  const listRef = useRef<HTMLElement>(null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  /** Where the list was before older messages were put above, so it can stay put. */
  const anchorRef = useRef<{ height: number; top: number } | null>(null);
  const atBottomRef = useRef(true);

  useDocumentTitle("Chat · Twinline");

  // "Failed to load chat data" once per failed first load.
  useEffect(() => {
    if (chat.loadError) toast.error(CHAT_TEXT.failedLoadChat, { id: "chat-load" });
  }, [chat.loadError]);

  const loadOlder = useCallback(() => {
    const list = listRef.current;
    if (!list || !chat.hasOlder || chat.isLoadingOlder) return;
    anchorRef.current = { height: list.scrollHeight, top: list.scrollTop };
    void chat.loadOlder().then((loaded) => {
      if (!loaded) anchorRef.current = null;
    });
  }, [chat]);

  const onScroll = () => {
    const list = listRef.current;
    if (!list) return;
    atBottomRef.current =
      list.scrollHeight - list.scrollTop - list.clientHeight <= STICK_TO_BOTTOM_PX;
    if (list.scrollTop <= LOAD_OLDER_THRESHOLD_PX) loadOlder();
  };

  const last = chat.items.at(-1);
  const first = chat.items[0];
  // Older messages went in above: keep what the reader was looking at where it was.
  // New messages at the end: follow them while the reader is at the bottom.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the first or last message changes
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const anchor = anchorRef.current;
    if (anchor) {
      if (list.scrollHeight !== anchor.height) {
        list.scrollTop = list.scrollHeight - anchor.height + anchor.top;
        anchorRef.current = null;
      }
      return;
    }
    if (atBottomRef.current) list.scrollTop = list.scrollHeight;
  }, [first?.key, last?.key, last?.content, chat.isWaiting, chat.items.length]);

  // A first page too short to scroll: fetch older ones until the list can scroll (or none are left).
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again when the list grows
  useEffect(() => {
    const list = listRef.current;
    if (!list || list.clientHeight === 0 || chat.isLoading) return;
    if (list.scrollHeight <= list.clientHeight && chat.hasOlder && !chat.isLoadingOlder) {
      loadOlder();
    }
  }, [chat.items.length, chat.isLoading, chat.hasOlder, chat.isLoadingOlder, loadOlder]);

  const sendCurrent = async () => {
    const message = text;
    if (!message.trim()) return;
    setText("");
    atBottomRef.current = true;
    const outcome = await chat.send(message);
    // Nothing typed is lost: a message the server never took goes back into an empty box.
    if (!outcome.ok && outcome.restore) {
      setText((current) => (current.trim() ? current : message));
    }
  };

  const remaining = chat.usage?.remaining;
  const usageText =
    remaining === undefined
      ? null
      : remaining === "unlimited"
        ? "Unlimited messages"
        : `${remaining} free ${remaining === 1 ? "message" : "messages"} left today`;

  const personaImage = persona.aiProfileImage;
  const entries = useMemo(() => groupCalls(chat.items), [chat.items]);
  const crisisPinned = useCrisisPin(chat.items, chat.crisisGiven);

  return (
    <div className="flex h-[calc(100dvh-7rem)] min-h-[26rem] flex-col overflow-hidden rounded-3xl border border-stone-200 bg-stone-50 shadow-xs sm:h-[calc(100dvh-8rem)] lg:h-[calc(100dvh-4rem)] dark:border-white/10 dark:bg-stone-900/60">
      <header className="flex items-center gap-3 border-b border-stone-200 bg-white px-3 py-3 sm:px-5 dark:border-white/10 dark:bg-stone-900">
        <UserAvatar name={persona.name} image={personaImage} />
        <div className="min-w-0 flex-1">
          <div className="flex min-w-0 items-center">
            <h1 className="truncate font-display text-base font-bold text-stone-900 sm:text-lg dark:text-white">
              {persona.name}
            </h1>
            <AiMarker />
          </div>
          <p
            className="truncate text-xs text-stone-500 dark:text-stone-400"
            data-testid="chat-usage"
          >
            {usageText ?? "AI twin"}
          </p>
        </div>
        <button
          type="button"
          onClick={() => setConfirmClear(true)}
          disabled={chat.busy || chat.clearing}
          aria-label="Clear chat history"
          title="Clear chat history"
          className={buttonClasses("ghost", "sm", "px-2.5 sm:px-3.5")}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          <span className="hidden sm:inline">Clear chat</span>
        </button>
      </header>

      <div className="relative min-h-0 flex-1">
        {chat.isLoadingOlder && (
          // Over the list, not in it: showing it must not move the messages.
          <p
            role="status"
            className="absolute top-2 left-1/2 z-10 flex -translate-x-1/2 items-center gap-2 rounded-full border border-stone-200 bg-white px-3 py-1 text-xs text-stone-600 shadow-sm dark:border-white/10 dark:bg-stone-800 dark:text-stone-300"
          >
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            Loading older messages…
          </p>
        )}
        <section
          ref={listRef}
          onScroll={onScroll}
          data-testid="chat-scroll"
          // Focusable, so a keyboard user can scroll the messages with the arrow keys.
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus
          tabIndex={0}
          aria-label="Messages"
          className="h-full overflow-y-auto overscroll-contain px-3 py-4 sm:px-5"
        >
          {chat.isLoading ? (
            <div role="status" className="flex h-full items-center justify-center">
              <LoaderCircle aria-hidden="true" className="size-6 animate-spin text-brand-600" />
              <span className="sr-only">Loading messages…</span>
            </div>
          ) : chat.loadError ? (
            <ErrorState layout="fill" message={CHAT_TEXT.failedLoadChat} onRetry={chat.reload} />
          ) : (
            <>
              {chat.items.length === 0 && !chat.busy && (
                <div className="flex h-full flex-col items-center justify-center gap-3 px-4 text-center">
                  <span className="flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300">
                    <MessageCircle aria-hidden="true" className="size-7" />
                  </span>
                  <p className="font-display text-lg font-semibold text-stone-900 dark:text-white">
                    Say hello to {persona.name}
                  </p>
                  <p className="max-w-sm text-sm text-stone-600 dark:text-stone-400">
                    Your messages and {persona.name}'s replies appear here.
                  </p>
                </div>
              )}
              {/* The live region wraps the list: role="log" on the <ol> itself would take its
                  list role away and leave every <li> outside a list. */}
              <div
                role="log"
                aria-live="polite"
                aria-label={`Conversation with ${persona.name}`}
                aria-busy={chat.isLoadingOlder || undefined}
              >
                <ol className="space-y-4">
                  {entries.map((entry) =>
                    entry.kind === "call" ? (
                      <CallBlock key={entry.key} entry={entry} personaName={persona.name} />
                    ) : entry.message.productKind === "crisis-support" ? (
                      <CrisisMessage
                        key={entry.message.key}
                        content={entry.message.content}
                        {...(entry.message.timestamp ? { timestamp: entry.message.timestamp } : {})}
                      />
                    ) : entry.message.sender === "product" ? (
                      <ProductNotice key={entry.message.key} message={entry.message} />
                    ) : (
                      <MessageBubble
                        key={entry.message.key}
                        message={entry.message}
                        personaName={persona.name}
                        personaImage={personaImage}
                        onSubscribe={onSubscribe}
                      />
                    ),
                  )}
                  {chat.isWaiting && (
                    <TypingIndicator personaName={persona.name} personaImage={personaImage} />
                  )}
                </ol>
              </div>
            </>
          )}
        </section>
      </div>

      {crisisPinned && <CrisisResourcesPanel resources={settings.crisisResources} />}

      <Composer
        value={text}
        onChange={setText}
        onSend={() => void sendCurrent()}
        maxWords={settings.maxWordsPerMessage}
        busy={chat.busy}
        personaName={persona.name}
        textareaRef={textareaRef}
      />

      <ClearChatDialog
        open={confirmClear}
        pending={chat.clearing}
        onOpenChange={setConfirmClear}
        onConfirm={() =>
          void chat.clear().then(() => {
            setConfirmClear(false);
            textareaRef.current?.focus();
          })
        }
      />
    </div>
  );
}
