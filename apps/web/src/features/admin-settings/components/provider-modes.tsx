import type { ProviderModes as Modes } from "@twinline/contracts";
import { clsx } from "clsx";
import { Bot, CreditCard, Mic, Volume2 } from "lucide-react";

const ROWS = [
  {
    key: "llm",
    label: "Language model",
    icon: Bot,
    live: "openai",
    liveText: "OpenAI",
    offlineText: "Offline responder",
    offlineHint: "Answers from the persona and its knowledge without a language model.",
  },
  {
    key: "stt",
    label: "Speech to text",
    icon: Mic,
    live: "openai",
    liveText: "OpenAI transcription",
    offlineText: "Offline: not transcribed",
    offlineHint: "Voice calls still answer, but what the caller says is not transcribed.",
    // Debian's pocketsphinx is installed: heard offline, roughly (decision 0043).
    other: {
      pocketsphinx: {
        text: "Offline (pocketsphinx)",
        hint: "Speech is recognised on this server, roughly; a key turns on OpenAI transcription.",
      },
    },
  },
  {
    key: "tts",
    label: "Voice",
    icon: Volume2,
    live: "elevenlabs",
    liveText: "ElevenLabs",
    offlineText: "Offline speech synthesiser",
    offlineHint: "Speaks with a built-in voice; the persona's cloned voice needs ElevenLabs.",
  },
  {
    key: "payments",
    label: "Payments",
    icon: CreditCard,
    live: "stripe",
    liveText: "Stripe",
    offlineText: "Sandbox checkout",
    offlineHint: "Purchases complete on a test page and no money moves.",
  },
] as const;

/** Which implementation each provider runs now (read-only), so the admin sees what is offline. */
export function ProviderModes({ modes }: { modes: Modes }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Provider modes">
      {ROWS.map((row) => {
        const live = modes[row.key] === row.live;
        const other =
          "other" in row
            ? (row.other as Record<string, { text: string; hint: string }>)[modes[row.key]]
            : undefined;
        const Icon = row.icon;
        return (
          <li
            key={row.key}
            data-testid={`provider-mode-${row.key}`}
            className={clsx(
              "rounded-xl border p-3.5",
              live
                ? "border-emerald-200 bg-emerald-50/60 dark:border-emerald-400/25 dark:bg-emerald-500/5"
                : "border-amber-200 bg-amber-50/70 dark:border-amber-400/25 dark:bg-amber-500/5",
            )}
          >
            <div className="flex items-center justify-between gap-2">
              <span className="inline-flex items-center gap-2 text-sm font-medium text-stone-700 dark:text-stone-300">
                <Icon aria-hidden="true" className="size-4" />
                {row.label}
              </span>
              <span
                className={clsx(
                  "rounded-full px-2 py-0.5 text-xs font-semibold",
                  live
                    ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300"
                    : "bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-300",
                )}
              >
                {live ? "Live" : "Offline"}
              </span>
            </div>
            <p className="mt-2 font-semibold text-stone-900 dark:text-white">
              {live ? row.liveText : (other?.text ?? row.offlineText)}
            </p>
            {!live && (
              <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">
                {other?.hint ?? row.offlineHint}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
