import { useRef } from "react";

/**
 * Focus back on what opened a dialog, for Radix dialogs opened without a Trigger (open state held
 * by the screen): Radix returns focus only to its own Trigger, and otherwise drops it on the
 * body, so Escape left a keyboard user at the top of the page. Spread the handlers on Content.
 */
export function useFocusReturn() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    // Called before Radix moves focus into the dialog: the focus is still on the opener.
    onOpenAutoFocus: () => {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const target = opener.current;
      opener.current = null;
      if (target?.isConnected) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
