import { useQuery } from "@tanstack/react-query";
import type { ChatLog, ChatMessage } from "@twinline/contracts";
import { clsx } from "clsx";
import { LoaderCircle } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState } from "@/components/ui/load-states";
import { Pager } from "@/components/ui/pager";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDateTime, formatDuration } from "@/lib/format";
import { speakerName } from "@/lib/speakers";
import { conversationQuery } from "../api/chat-logs";

interface ConversationDialogProps {
  log: ChatLog | null;
  onClose: () => void;
}

/** One conversation's messages, loaded on demand, 20 a page, page 1 the newest. */
export function ConversationDialog({ log, onClose }: ConversationDialogProps) {
  return (
    <Dialog
      open={log !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={log ? `Conversation with ${log.user.name}` : "Conversation"}
      description={
        log
          ? `${log.user.email} · ${log.character} · started ${formatDateTime(log.startTime)} · ${formatDuration(log.duration)} · ${log.messageCount} messages`
          : undefined
      }
      className="max-w-2xl"
      testId="conversation-dialog"
    >
      {log && <ConversationMessages key={log._id} log={log} />}
    </Dialog>
  );
}

function ConversationMessages({ log }: { log: ChatLog }) {
  const [page, setPage] = useState(1);
  const query = useQuery(conversationQuery(log._id, page));
  const pages = query.data?.pagination.pages ?? 1;

  if (query.isError && !query.data) {
    return (
      <ErrorState
        layout="compact"
        message="Failed to load messages"
        onRetry={() => query.refetch()}
      />
    );
  }

  return (
    <div className="-mx-5 sm:-mx-7">
      {/* Focusable, so a keyboard user can scroll a long conversation with the arrow keys. */}
      <section
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus
        tabIndex={0}
        aria-label="Messages"
        className={clsx(
          "max-h-[55dvh] overflow-y-auto px-5 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500 sm:px-7",
          query.isPlaceholderData && "opacity-60",
        )}
        aria-busy={query.isFetching}
      >
        {query.isPending ? (
          <div className="space-y-3" data-testid="conversation-loading">
            {Array.from({ length: 4 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholder rows
              <Skeleton key={i} className={clsx("h-10", i % 2 ? "ml-auto w-2/3" : "w-3/4")} />
            ))}
          </div>
        ) : query.data && query.data.messages.length === 0 ? (
          <p className="py-8 text-center text-sm text-stone-600 dark:text-stone-400">
            No messages in this conversation
          </p>
        ) : (
          <ol className="space-y-3">
            {query.data?.messages.map((message) => {
              const user = message.sender === "user";
              if (message.sender === "product") {
                // The product's own notice (issue 25): when it was given, and which one.
                return (
                  <li
                    key={message._id}
                    data-testid="conversation-message"
                    data-sender="product"
                    className="flex flex-col items-center"
                  >
                    <span className="mb-0.5 text-xs text-stone-500 dark:text-stone-400">
                      {speakerName(message, { you: log.user.name, persona: log.character })} ·{" "}
                      {formatDateTime(message.timestamp)}
                      {message.callId ? " · Voice call" : ""}
                    </span>
                    {/* A caring message that replaced a persona reply carries that reply's flag. */}
                    <MessageFlag message={message} />
                    <p className="max-w-[90%] rounded-xl border border-sky-200 bg-sky-50 px-3.5 py-2 text-sm break-words text-sky-950 dark:border-sky-400/30 dark:bg-sky-500/10 dark:text-sky-100">
                      {message.content}
                    </p>
                  </li>
                );
              }
              return (
                <li
                  key={message._id}
                  data-testid="conversation-message"
                  className={clsx("flex flex-col", user ? "items-end" : "items-start")}
                >
                  <span className="mb-0.5 text-xs text-stone-500 dark:text-stone-400">
                    {user ? log.user.name : log.character} · {formatDateTime(message.timestamp)}
                    {message.callId ? " · Voice call" : ""}
                  </span>
                  <MessageFlag message={message} />
                  <p
                    className={clsx(
                      "max-w-[85%] rounded-2xl px-3.5 py-2 text-sm break-words whitespace-pre-wrap",
                      user
                        ? "rounded-br-md bg-brand-600 text-white"
                        : "rounded-bl-md bg-stone-100 text-stone-900 dark:bg-white/10 dark:text-stone-100",
                    )}
                  >
                    {message.content}
                  </p>
                </li>
              );
            })}
          </ol>
        )}
      </section>
      {query.isFetching && !query.isPending && (
        <p role="status" className="sr-only">
          <LoaderCircle aria-hidden="true" />
          Loading messages…
        </p>
      )}
      {pages > 1 && (
        <div className="mt-3">
          <Pager page={page} pages={pages} disabled={query.isFetching} onPage={setPage} />
        </div>
      )}
    </div>
  );
}

/** The crisis check's mark on a message (issue 25 item 3): the fan's words, or a replaced reply. */
function MessageFlag({ message }: { message: ChatMessage }) {
  if (!message.flag) return null;
  return (
    <span data-testid="message-flag" className="mb-1">
      <Badge tone="red">
        {message.sender === "user" ? "Flagged" : "Replaced reply"}: {message.flag.category}
      </Badge>
    </span>
  );
}
