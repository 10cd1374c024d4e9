import { countWords } from "@twinline/contracts";
import { clsx } from "clsx";
import { SendHorizontal } from "lucide-react";
import { type KeyboardEvent, useId } from "react";
import toast from "react-hot-toast";
import { CHAT_TEXT } from "../messages";

interface ComposerProps {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  maxWords: number;
  /** A reply is on its way: typing goes on, sending waits. */
  busy: boolean;
  personaName: string;
  textareaRef?: React.Ref<HTMLTextAreaElement>;
}

/** Shows "Word limit exceeded / Messages cannot exceed N words" once per burst of blocked typing. */
function wordLimitToast(maxWords: number) {
  toast.error(
    <span>
      <strong className="block">{CHAT_TEXT.wordLimitTitle}</strong>
      {CHAT_TEXT.wordLimitBody(maxWords)}
    </span>,
    { id: "chat-word-limit" },
  );
}

/**
 * The message box: a word counter (N / max), typing past the limit is blocked, Enter sends,
 * Shift+Enter adds a line (and Enter while composing with an IME does not send).
 */
export function Composer({
  value,
  onChange,
  onSend,
  maxWords,
  busy,
  personaName,
  textareaRef,
}: ComposerProps) {
  const counterId = useId();
  const words = countWords(value);
  const canSend = value.trim().length > 0 && !busy;

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend) onSend();
  };

  return (
    <form
      className="border-t border-stone-200 bg-white/80 p-3 sm:p-4 dark:border-white/10 dark:bg-stone-900/80"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSend) onSend();
      }}
    >
      <div className="flex items-end gap-2">
        <label className="min-w-0 flex-1">
          <span className="sr-only">Message {personaName}</span>
          <textarea
            ref={textareaRef}
            value={value}
            rows={1}
            onChange={(event) => {
              const next = event.target.value;
              if (countWords(next) > maxWords && countWords(next) > words) {
                wordLimitToast(maxWords);
                return;
              }
              onChange(next);
            }}
            onKeyDown={onKeyDown}
            aria-describedby={counterId}
            placeholder={`Message ${personaName}…`}
            className="field-sizing-content block max-h-40 min-h-11 w-full resize-none rounded-2xl border border-stone-300 bg-white px-4 py-2.5 text-sm text-stone-900 placeholder:text-stone-400 focus:border-brand-500 focus:outline-2 focus:outline-offset-0 focus:outline-brand-500/30 dark:border-white/15 dark:bg-stone-950 dark:text-white dark:placeholder:text-stone-500"
          />
        </label>
        <button
          type="submit"
          disabled={!canSend}
          aria-label="Send message"
          className="inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-gradient-to-r from-brand-600 to-orange-500 text-white shadow-lg shadow-brand-600/25 transition hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 disabled:pointer-events-none disabled:opacity-50"
        >
          <SendHorizontal aria-hidden="true" className="size-5" />
        </button>
      </div>
      <div className="mt-1.5 flex items-center justify-between gap-2 px-1 text-xs text-stone-500 dark:text-stone-400">
        <span className="hidden sm:inline">Enter to send, Shift+Enter for a new line</span>
        <span
          id={counterId}
          data-testid="word-counter"
          className={clsx(
            "ml-auto tabular-nums",
            words >= maxWords && "font-semibold text-amber-700 dark:text-amber-300",
          )}
        >
          {words} / {maxWords}
          <span className="sr-only"> words</span>
        </span>
      </div>
    </form>
  );
}
