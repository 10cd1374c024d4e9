import * as DialogPrimitive from "@radix-ui/react-dialog";
import { clsx } from "clsx";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { useFocusReturn } from "./use-focus-return";

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Read by screen readers with the title; visible unless `hideDescription`. */
  description?: ReactNode;
  hideDescription?: boolean;
  children: ReactNode;
  className?: string;
  /** Names the content for tests. */
  testId?: string;
}

/**
 * A modal dialog (Radix): focus is trapped inside, Escape and the close button close it, focus
 * returns to what opened it. Full width on phones, centred card from `sm` up.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  hideDescription = false,
  children,
  className,
  testId,
}: DialogProps) {
  const focusReturn = useFocusReturn();
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-stone-950/60 backdrop-blur-sm" />
        <DialogPrimitive.Content
          {...focusReturn}
          data-testid={testId}
          className={clsx(
            "fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-3xl border border-stone-200 bg-white p-5 shadow-2xl focus:outline-none sm:p-7 dark:border-white/10 dark:bg-stone-900",
            className,
          )}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className="pr-8">
            <DialogPrimitive.Title className="font-display text-2xl font-bold text-stone-900 dark:text-white">
              {title}
            </DialogPrimitive.Title>
            {description ? (
              <DialogPrimitive.Description
                className={clsx(
                  "mt-1.5 text-sm text-stone-600 dark:text-stone-400",
                  hideDescription && "sr-only",
                )}
              >
                {description}
              </DialogPrimitive.Description>
            ) : null}
          </div>
          <div className="mt-5">{children}</div>
          <DialogPrimitive.Close
            aria-label="Close"
            className="absolute top-4 right-4 inline-flex size-9 items-center justify-center rounded-full text-stone-500 transition hover:bg-stone-100 hover:text-stone-900 dark:text-stone-400 dark:hover:bg-white/10 dark:hover:text-white"
          >
            <X aria-hidden="true" className="size-5" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
