import { useEffect } from "react";

/**
 * The one way a screen sets the browser tab's title: `title` is the whole text, suffix included
 * ("Chat · Twinline", "Users · Twinline Admin"). Set after render and again whenever `title`
 * changes; nothing is restored on unmount, since the next screen sets its own.
 */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
