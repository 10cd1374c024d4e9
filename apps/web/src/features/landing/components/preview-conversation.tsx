import { clsx } from "clsx";
import { ArrowRight, MessageCircle, Phone, SendHorizontal } from "lucide-react";
import type { ReactNode } from "react";
import { buttonClasses } from "@/components/ui/button";
import { UserAvatar } from "@/components/ui/user-avatar";
import { AppLink } from "@/lib/navigation";
import { useSettings } from "@/lib/settings";
import { AUTH_PATH, PREVIEW_MESSAGES } from "../content";

export interface PreviewConversationProps {
  /**
   * The anonymous trial (decision 0084): set when a visitor may chat without an account. The
   * button "Chat now" calls it; the route then loads the trial chat (a bundle of its own).
   */
  onTryNow?: (() => void) | undefined;
  /** The pointer or focus is on "Chat now": the route may fetch the chat's bundle early. */
  onTryNowIntent?: (() => void) | undefined;
  /** The trial chat, shown in place of the sample once the visitor started it. */
  trialChat?: ReactNode;
}

/** A sample conversation between a fan and the persona, or the real trial chat once started. */
export function PreviewConversation({
  onTryNow,
  onTryNowIntent,
  trialChat,
}: PreviewConversationProps = {}) {
  const { settings } = useSettings();
  const { name, aiProfileImage } = settings.aiProfile;
  return (
    <section id="preview" aria-labelledby="preview-title" className="py-20 sm:py-28">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:gap-16">
        <div className="text-center lg:text-left">
          <p className="text-sm font-semibold tracking-widest text-brand-600 uppercase dark:text-brand-300">
            Preview
          </p>
          <h2
            id="preview-title"
            className="mt-3 font-display text-3xl font-extrabold tracking-tight text-balance text-stone-900 sm:text-4xl dark:text-white"
          >
            See what a chat with {name} feels like
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-pretty text-stone-600 dark:text-stone-300">
            Quick, warm replies that remember what you said. Ask about their day, share yours, or
            switch to a voice call when typing is not enough.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3 lg:justify-start">
            {onTryNow ? (
              <button
                type="button"
                data-testid="trial-start"
                onClick={onTryNow}
                onPointerEnter={onTryNowIntent}
                onFocus={onTryNowIntent}
                className={buttonClasses("primary", "lg")}
              >
                <MessageCircle aria-hidden="true" className="size-5" />
                Chat now, no account needed
              </button>
            ) : null}
            <AppLink
              to={AUTH_PATH}
              className={buttonClasses(onTryNow ? "secondary" : "primary", "lg")}
            >
              Try it yourself
              <ArrowRight aria-hidden="true" className="size-5" />
            </AppLink>
          </div>
        </div>

        {trialChat ? <div className="mx-auto w-full max-w-md">{trialChat}</div> : null}

        <figure
          hidden={Boolean(trialChat)}
          data-testid="preview-conversation"
          className="mx-auto w-full max-w-md overflow-hidden rounded-3xl border border-stone-200 bg-white shadow-2xl shadow-brand-900/10 dark:border-white/10 dark:bg-stone-900"
        >
          <figcaption className="flex items-center gap-3 border-b border-stone-200 px-4 py-3 dark:border-white/10">
            <UserAvatar
              name={name}
              image={aiProfileImage}
              className="size-10 shrink-0 rounded-full"
              textClassName="text-sm"
              labelled
              placeholderTestId="persona-placeholder"
            />
            <span className="min-w-0 flex-1">
              <span className="block truncate font-semibold text-stone-900 dark:text-white">
                {name}
              </span>
              <span className="flex items-center gap-1.5 text-xs text-emerald-700 dark:text-emerald-400">
                <span aria-hidden="true" className="size-1.5 rounded-full bg-emerald-500" />
                Online
              </span>
            </span>
            <span
              aria-hidden="true"
              className="flex size-9 items-center justify-center rounded-full bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300"
            >
              <Phone className="size-4" />
            </span>
          </figcaption>
          <ol
            aria-label="Preview conversation"
            className="space-y-3 bg-stone-50/70 px-4 py-5 dark:bg-stone-950/40"
          >
            {PREVIEW_MESSAGES.map((message) => {
              const fromFan = message.from === "fan";
              return (
                <li
                  key={message.text}
                  data-testid="preview-message"
                  className={clsx("flex", fromFan ? "justify-end" : "justify-start")}
                >
                  <div
                    className={clsx(
                      "max-w-[85%] rounded-2xl px-4 py-2.5 text-[0.95rem] leading-snug shadow-sm",
                      fromFan
                        ? "rounded-br-md bg-gradient-to-r from-brand-600 to-rose-500 text-white"
                        : "rounded-bl-md border border-stone-200 bg-white text-stone-800 dark:border-white/10 dark:bg-stone-800 dark:text-stone-100",
                    )}
                  >
                    <span className="sr-only">{fromFan ? "You" : name}: </span>
                    {message.text}
                    <span
                      aria-hidden="true"
                      className={clsx(
                        "mt-1 block text-right text-[0.7rem]",
                        fromFan ? "text-white/80" : "text-stone-500 dark:text-stone-400",
                      )}
                    >
                      {message.time}
                    </span>
                  </div>
                </li>
              );
            })}
            <li aria-hidden="true" className="flex justify-start">
              <span className="flex gap-1 rounded-2xl rounded-bl-md border border-stone-200 bg-white px-4 py-3 dark:border-white/10 dark:bg-stone-800">
                <span className="size-1.5 animate-bounce rounded-full bg-stone-400" />
                <span className="size-1.5 animate-bounce rounded-full bg-stone-400 [animation-delay:150ms]" />
                <span className="size-1.5 animate-bounce rounded-full bg-stone-400 [animation-delay:300ms]" />
              </span>
            </li>
          </ol>
          <div
            aria-hidden="true"
            className="flex items-center gap-2 border-t border-stone-200 px-4 py-3 dark:border-white/10"
          >
            <span className="flex-1 rounded-full bg-stone-100 px-4 py-2 text-sm text-stone-600 dark:bg-white/5 dark:text-stone-300">
              Type a message…
            </span>
            <span className="flex size-9 items-center justify-center rounded-full bg-gradient-to-r from-brand-600 to-orange-500 text-white">
              <SendHorizontal className="size-4" />
            </span>
          </div>
        </figure>
      </div>
    </section>
  );
}
