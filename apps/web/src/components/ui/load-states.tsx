import { RotateCw } from "lucide-react";
import { buttonClasses } from "./button";
import { Spinner } from "./spinner";

/** A centred spinner where a page's content will show. */
export function LoadingState({ label }: { label: string }) {
  return (
    <div className="flex justify-center py-16">
      <Spinner label={label} />
    </div>
  );
}

/**
 * Where the failed content would stand: `card` on its own, `inline` inside a card, `compact` in a
 * dialog, `fill` filling its parent, `screen` filling the viewport.
 */
const ERROR_LAYOUTS = {
  card: {
    box: "flex flex-col items-center gap-4 rounded-2xl border border-stone-200 bg-white px-4 py-12 text-center dark:border-white/10 dark:bg-stone-900",
    message: "text-stone-700 dark:text-stone-300",
    button: "sm",
  },
  inline: {
    box: "flex flex-col items-center gap-4 px-4 py-12 text-center",
    message: "text-stone-700 dark:text-stone-300",
    button: "sm",
  },
  compact: {
    box: "flex flex-col items-center gap-3 py-8 text-center",
    message: "text-sm text-stone-700 dark:text-stone-300",
    button: "sm",
  },
  fill: {
    box: "flex h-full flex-col items-center justify-center gap-4 text-center",
    message: "text-stone-700 dark:text-stone-300",
    button: "sm",
  },
  screen: {
    box: "flex min-h-dvh flex-col items-center justify-center gap-4 px-6 text-center",
    message: "max-w-sm text-stone-700 dark:text-stone-300",
    button: "md",
  },
} as const;

/** A load failure: the message as an alert and a Try again button. */
export function ErrorState({
  message,
  onRetry,
  layout = "card",
}: {
  message: string;
  onRetry: () => void;
  layout?: keyof typeof ERROR_LAYOUTS;
}) {
  const classes = ERROR_LAYOUTS[layout];
  return (
    <div className={classes.box}>
      <p role="alert" className={classes.message}>
        {message}
      </p>
      <button
        type="button"
        onClick={onRetry}
        className={buttonClasses("secondary", classes.button)}
      >
        <RotateCw aria-hidden="true" className="size-4" />
        Try again
      </button>
    </div>
  );
}
