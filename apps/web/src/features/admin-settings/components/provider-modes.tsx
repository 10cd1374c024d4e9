import type { KeyTests, ProviderModes as Modes } from "@twinline/contracts";
import { clsx } from "clsx";
import { Bot, CreditCard, Mic, Volume2 } from "lucide-react";

const ROWS = [
  {
    key: "llm",
    label: "Language model",
    icon: Bot,
    live: "openai",
    liveText: "OpenAI",
    keyTest: "openai",
    offlineText: "Offline responder",
    offlineHint: "Answers from the persona and its knowledge without a language model.",
  },
  {
    key: "stt",
    label: "Speech to text",
    icon: Mic,
    live: "openai",
    liveText: "OpenAI transcription",
    keyTest: "openai",
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
    keyTest: "elevenLabs",
    offlineText: "Offline speech synthesiser",
    offlineHint: "Speaks with a built-in voice; the persona's cloned voice needs ElevenLabs.",
  },
  {
    key: "payments",
    label: "Payments",
    icon: CreditCard,
    live: "stripe",
    liveText: "Stripe",
    keyTest: "stripe",
    offlineText: "Sandbox checkout",
    offlineHint: "Purchases complete on a test page and no money moves.",
  },
] as const;

/**
 * Which implementation each provider runs now (read-only), so the admin sees what is offline,
 * and when the key in force failed its last test, that it did (not "Live").
 */
export function ProviderModes({ modes, keyTests }: { modes: Modes; keyTests: KeyTests }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Provider modes">
      {ROWS.map((row) => {
        const running = modes[row.key] === row.live;
        const failedTest =
          running && keyTests[row.keyTest]?.ok === false ? keyTests[row.keyTest] : null;
        const live = running && !failedTest;
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
              failedTest
                ? "border-red-200 bg-red-50/60 dark:border-red-400/25 dark:bg-red-500/5"
                : live
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
                  failedTest
                    ? "bg-red-100 text-red-800 dark:bg-red-500/15 dark:text-red-300"
                    : live
                      ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300"
                      : "bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-300",
                )}
              >
                {failedTest ? "Test failed" : live ? "Live" : "Offline"}
              </span>
            </div>
            <p className="mt-2 font-semibold text-stone-900 dark:text-white">
              {running ? row.liveText : (other?.text ?? row.offlineText)}
            </p>
            {failedTest && (
              <p className="mt-1 text-xs text-red-700 dark:text-red-300">
                The key in use failed its last test
                {failedTest.message ? `: ${failedTest.message}` : "."}
              </p>
            )}
            {!running && (
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
