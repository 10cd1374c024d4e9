import { PRODUCT_KIND_LABELS } from "@twinline/contracts";
import { clsx } from "clsx";
import { Coffee, Info } from "lucide-react";
import { formatTime } from "@/lib/format";
import type { DisplayMessage } from "../hooks/use-chat";

/**
 * A notice of the product in the conversation (issue 25): the AI notice or a break reminder.
 * Not a bubble of the persona: centred, with the product's own voice, named by its kind.
 */
export function ProductNotice({ message }: { message: DisplayMessage }) {
  const kind = message.productKind ?? "ai-notice";
  const Icon = kind === "break-reminder" ? Coffee : Info;
  const time = formatTime(message.timestamp, "");
  return (
    <li className="flex justify-center" data-testid="product-notice" data-kind={kind}>
      <div
        role="note"
        aria-label={PRODUCT_KIND_LABELS[kind]}
        className={clsx(
          "flex w-full max-w-[90%] items-start gap-2.5 rounded-xl border px-4 py-2.5 text-sm sm:max-w-[75%]",
          "border-sky-200 bg-sky-50 text-sky-950 dark:border-sky-400/30 dark:bg-sky-500/10 dark:text-sky-100",
        )}
      >
        <Icon
          aria-hidden="true"
          className="mt-0.5 size-4 shrink-0 text-sky-700 dark:text-sky-300"
        />
        <p className="min-w-0 flex-1">
          <span className="font-semibold">{PRODUCT_KIND_LABELS[kind]}: </span>
          {message.content}
          {time ? (
            <time
              dateTime={message.timestamp}
              className="ml-2 text-xs whitespace-nowrap text-sky-800 dark:text-sky-200"
            >
              {time}
            </time>
          ) : null}
        </p>
      </div>
    </li>
  );
}
