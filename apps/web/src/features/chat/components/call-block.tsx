import { Phone } from "lucide-react";
import { speakerName } from "@/lib/speakers";
import type { DisplayMessage } from "../hooks/use-chat";

/** The chat's list: messages, with each call's consecutive turns gathered into one entry. */
export type ChatEntry =
  | { kind: "message"; message: DisplayMessage }
  | { kind: "call"; key: string; callId: string; duration: number | null; turns: DisplayMessage[] };

export function groupCalls(items: DisplayMessage[]): ChatEntry[] {
  const entries: ChatEntry[] = [];
  for (const message of items) {
    const last = entries.at(-1);
    if (message.callId && last?.kind === "call" && last.callId === message.callId) {
      last.turns.push(message);
    } else if (message.callId) {
      entries.push({
        kind: "call",
        key: `call-${message.key}`,
        callId: message.callId,
        duration: message.callDuration ?? null,
        turns: [message],
      });
    } else {
      entries.push({ kind: "message", message });
    }
  }
  return entries;
}

/** "Voice call · 3 min" (at least 1 min once ended), "Voice call" while it is live. */
export function callLabel(duration: number | null): string {
  if (duration === null) return "Voice call";
  return `Voice call · ${Math.max(1, Math.round(duration / 60))} min`;
}

/** One call in the chat: its label, and its transcript folded in (a native disclosure). */
export function CallBlock({
  entry,
  personaName,
}: {
  entry: Extract<ChatEntry, { kind: "call" }>;
  personaName: string;
}) {
  return (
    <li className="flex justify-center" data-testid="call-entry">
      <details className="w-full max-w-[90%] rounded-2xl border border-stone-200 bg-white text-sm sm:max-w-[75%] dark:border-white/10 dark:bg-stone-800">
        <summary className="flex cursor-pointer items-center gap-2 px-4 py-2.5 font-medium text-stone-800 dark:text-stone-100">
          <Phone aria-hidden="true" className="size-4 text-brand-600 dark:text-brand-300" />
          <span>{callLabel(entry.duration)}</span>
          <span className="ml-auto text-xs font-normal text-stone-500 dark:text-stone-400">
            Transcript
          </span>
        </summary>
        <ol className="space-y-2 border-t border-stone-200 px-4 py-3 dark:border-white/10">
          {entry.turns.map((turn) => (
            <li
              key={turn.key}
              data-testid="call-turn"
              data-sender={turn.sender}
              className="whitespace-pre-wrap"
            >
              <span className="font-semibold text-stone-900 dark:text-white">
                {speakerName(turn, { you: "You", persona: personaName })}:
              </span>{" "}
              <span className="text-stone-700 dark:text-stone-300">{turn.content}</span>
            </li>
          ))}
        </ol>
      </details>
    </li>
  );
}
