import { clsx } from "clsx";
import { AlertCircle } from "lucide-react";
import { UserAvatar } from "@/components/ui/user-avatar";
import { formatTime } from "@/lib/format";
import type { DisplayMessage } from "../hooks/use-chat";
import { CHAT_TEXT } from "../messages";
import { Markdown } from "./markdown";

interface MessageBubbleProps {
  message: DisplayMessage;
  personaName: string;
  personaImage: string;
  onSubscribe: () => void;
}

/** One message: the user's on the right as plain text, the persona's on the left as markdown. */
export function MessageBubble({
  message,
  personaName,
  personaImage,
  onSubscribe,
}: MessageBubbleProps) {
  const mine = message.sender === "user";
  const time = formatTime(message.timestamp, "");
  const notice = message.state === "notice";
  return (
    <li
      className={clsx("flex items-end gap-2", mine ? "justify-end" : "justify-start")}
      data-testid={mine ? "user-message" : "ai-message"}
      data-state={message.state}
    >
      {!mine && <UserAvatar name={personaName} image={personaImage} />}
      <div className={clsx("flex max-w-[85%] flex-col sm:max-w-[75%]", mine && "items-end")}>
        <span className="sr-only">{mine ? "You said:" : `${personaName} said:`}</span>
        <div
          aria-busy={message.state === "streaming" || undefined}
          className={clsx(
            "rounded-2xl px-4 py-2.5 text-sm leading-relaxed break-words",
            mine
              ? "rounded-br-md bg-gradient-to-br from-brand-600 to-orange-500 whitespace-pre-wrap text-white"
              : notice
                ? "rounded-bl-md border border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-400/30 dark:bg-amber-500/10 dark:text-amber-100"
                : "rounded-bl-md border border-stone-200 bg-white text-stone-900 dark:border-white/10 dark:bg-stone-800 dark:text-stone-100",
            message.state === "failed" && "opacity-70",
          )}
        >
          {mine || notice ? message.content : <Markdown>{message.content}</Markdown>}
          {message.state === "streaming" && (
            <span
              aria-hidden="true"
              className="ml-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-pulse rounded-sm bg-current opacity-60"
            />
          )}
          {message.notice === "limit" && (
            <button
              type="button"
              onClick={onSubscribe}
              className="mt-2 block rounded-full bg-amber-900 px-3 py-1 text-xs font-semibold text-white hover:bg-amber-800 dark:bg-amber-300 dark:text-amber-950 dark:hover:bg-amber-200"
            >
              {CHAT_TEXT.subscribe}
            </button>
          )}
        </div>
        {message.state === "failed" ? (
          <span className="mt-1 inline-flex items-center gap-1 text-xs text-red-600 dark:text-red-400">
            <AlertCircle aria-hidden="true" className="size-3.5" />
            Not sent
          </span>
        ) : message.replyFailed ? (
          <span
            data-testid="reply-failed"
            className="mt-1 inline-flex items-center gap-1 text-xs text-red-700 dark:text-red-300"
          >
            <AlertCircle aria-hidden="true" className="size-3.5" />
            {CHAT_TEXT.replyFailedMark}
            {time ? (
              <time dateTime={message.timestamp} className="text-stone-500 dark:text-stone-400">
                · {time}
              </time>
            ) : null}
          </span>
        ) : message.state === "sending" ? (
          <span className="mt-1 text-xs text-stone-500 dark:text-stone-400">Sending…</span>
        ) : time ? (
          <time
            dateTime={message.timestamp}
            className="mt-1 text-xs text-stone-500 dark:text-stone-400"
          >
            {time}
          </time>
        ) : null}
      </div>
    </li>
  );
}

/** The persona "typing" while the reply has not begun. */
export function TypingIndicator({
  personaName,
  personaImage,
}: {
  personaName: string;
  personaImage: string;
}) {
  return (
    <li className="flex items-end gap-2" data-testid="typing-indicator">
      <UserAvatar name={personaName} image={personaImage} />
      <div className="rounded-2xl rounded-bl-md border border-stone-200 bg-white px-4 py-3.5 dark:border-white/10 dark:bg-stone-800">
        <span className="sr-only">{personaName} is typing…</span>
        <span aria-hidden="true" className="flex gap-1">
          {[0, 150, 300].map((delay) => (
            <span
              key={delay}
              className="size-2 animate-bounce rounded-full bg-stone-400 dark:bg-stone-500"
              style={{ animationDelay: `${delay}ms` }}
            />
          ))}
        </span>
      </div>
    </li>
  );
}
