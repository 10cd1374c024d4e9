import { AI_MARKER_LABEL, AI_MARKER_TEXT } from "@twinline/contracts";
import { clsx } from "clsx";

/**
 * The persistent "AI" marker beside the persona's name (issue 25): the fan always knows the
 * twin is an AI. Read as "AI: not a human being" by screen readers.
 */
export function AiMarker({
  className,
  tone = "light",
}: {
  className?: string;
  tone?: "light" | "onDark";
}) {
  return (
    <span
      data-testid="ai-marker"
      title={AI_MARKER_LABEL}
      className={clsx(
        "ml-1.5 inline-flex shrink-0 items-center rounded-md px-1.5 py-px align-middle font-sans text-[0.65rem] leading-4 font-bold tracking-wide ring-1 ring-inset",
        tone === "onDark"
          ? "bg-white/15 text-white ring-white/40"
          : "bg-sky-50 text-sky-800 ring-sky-600/30 dark:bg-sky-500/15 dark:text-sky-200 dark:ring-sky-400/40",
        className,
      )}
    >
      <span aria-hidden="true">{AI_MARKER_TEXT}</span>
      <span className="sr-only">{`(${AI_MARKER_LABEL})`}</span>
    </span>
  );
}
