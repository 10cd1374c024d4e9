import { useRef } from "react";

/** The same control, where the page re-rendered it while the dialog was open (e.g. the landing
 * page's header swapped for the routed app's): same tag, label and text. */
function sameControl(gone: HTMLElement): HTMLElement | null {
  if (gone.id) return document.getElementById(gone.id);
  const label = gone.getAttribute("aria-label");
  const text = gone.textContent?.trim();
  for (const candidate of document.querySelectorAll<HTMLElement>(gone.tagName)) {
    if (candidate.getAttribute("aria-label") === label && candidate.textContent?.trim() === text) {
      return candidate;
    }
  }
  return null;
}

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
      const saved = opener.current;
      opener.current = null;
      const target = saved && (saved.isConnected ? saved : sameControl(saved));
      if (target) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
