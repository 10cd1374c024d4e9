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

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** How long after a dialog closed its opener may still be taken off the page by the screen. */
const SETTLE_MS = 3000;

const ancestorsOf = (element: HTMLElement): HTMLElement[] => {
  const chain: HTMLElement[] = [];
  for (let node = element.parentElement; node; node = node.parentElement) chain.push(node);
  return chain;
};

/**
 * Where focus goes when what opened the dialog left the page (the row it deleted): the first
 * control in the nearest part of the page that is still there, else the main region.
 */
function nearestStillThere(ancestors: HTMLElement[]): HTMLElement | null {
  for (const ancestor of ancestors) {
    if (!ancestor.isConnected || ancestor === document.body) continue;
    const control = ancestor.querySelector<HTMLElement>(FOCUSABLE);
    if (control) return control;
  }
  const main = document.getElementById("main");
  if (main && !main.hasAttribute("tabindex")) main.tabIndex = -1;
  return main;
}

/**
 * Keeps focus off the body while the screen settles: a confirmed delete closes its dialog, then
 * the list reloads without the row, taking the focused opener with it.
 */
function followRemoval(control: HTMLElement, ancestors: HTMLElement[]) {
  const observer = new MutationObserver(() => {
    if (control.isConnected) return;
    stop();
    if (document.activeElement === document.body || document.activeElement === null) {
      nearestStillThere(ancestors)?.focus();
    }
  });
  const timer = window.setTimeout(() => observer.disconnect(), SETTLE_MS);
  const stop = () => {
    observer.disconnect();
    window.clearTimeout(timer);
  };
  observer.observe(document.body, { childList: true, subtree: true });
}

/**
 * Focus back on what opened a dialog, for Radix dialogs opened without a Trigger (open state held
 * by the screen): Radix returns focus only to its own Trigger, and otherwise drops it on the
 * body, so Escape left a keyboard user at the top of the page. Spread the handlers on Content.
 * When the opener is gone for good (its row was deleted), focus goes to the nearest control.
 */
export function useFocusReturn() {
  const opener = useRef<{ element: HTMLElement; ancestors: HTMLElement[] } | null>(null);
  return {
    // Called before Radix moves focus into the dialog: the focus is still on the opener.
    onOpenAutoFocus: () => {
      const active = document.activeElement;
      opener.current =
        active instanceof HTMLElement && active !== document.body
          ? { element: active, ancestors: ancestorsOf(active) }
          : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const saved = opener.current;
      opener.current = null;
      if (!saved) return;
      const { element, ancestors } = saved;
      const target =
        (element.isConnected ? element : sameControl(element)) ?? nearestStillThere(ancestors);
      if (!target) return;
      event.preventDefault();
      target.focus();
      followRemoval(target, ancestorsOf(target));
    },
  };
}
