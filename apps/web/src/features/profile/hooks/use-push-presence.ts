import { useEffect } from "react";
import { reportPresence } from "../api/push-api";

/** How often a visible tab says so again (the server holds it for PUSH_VISIBLE_SECONDS, 150). */
const REPEAT_MS = 60_000;

/**
 * Tells the server whether this tab is visible, so that a reply is notified only when the fan
 * has left the tab (docs/decisions/0082): at once, at each change, and every minute while
 * visible. Only where notifications are allowed: a fan who never turned them on sends nothing.
 */
export function usePushPresence(): void {
  useEffect(() => {
    if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const report = () => {
      const visible = document.visibilityState === "visible";
      reportPresence(visible).catch(() => {
        // Best effort: without it the server holds the last report for at most 150 s.
      });
      clearInterval(timer);
      if (visible) timer = setInterval(() => void reportPresence(true).catch(() => {}), REPEAT_MS);
    };
    report();
    document.addEventListener("visibilitychange", report);
    return () => {
      document.removeEventListener("visibilitychange", report);
      clearInterval(timer);
    };
  }, []);
}
