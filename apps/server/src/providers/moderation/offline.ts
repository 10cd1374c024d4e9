import { detectCrisis } from "./crisis-phrases.ts";
import type { ModerationProvider } from "./types.ts";

/** The crisis check with no key: our own phrase detector (crisis-phrases.ts). */
export function createOfflineModeration(): ModerationProvider {
  return {
    mode: "offline",
    async check({ text }) {
      return { ...detectCrisis(text), source: "offline" };
    },
  };
}
