import { useEffect } from "react";
import { mediaUrl } from "@/lib/api-client";
import { SETTINGS_ERROR_MESSAGE } from "@/lib/constants";
import { useSettings } from "@/lib/settings";

const DEFAULT_FAVICON = "/favicon.svg";

function iconType(href: string): string | null {
  const path = href.split(/[?#]/)[0]?.toLowerCase() ?? "";
  if (path.endsWith(".svg")) return "image/svg+xml";
  if (path.endsWith(".png")) return "image/png";
  if (path.endsWith(".ico")) return "image/x-icon";
  return null;
}

/** Points <link rel="icon"> at the favicon from settings, or the built-in one. */
export function applyFavicon(favicon: string): void {
  const href = mediaUrl(favicon) || DEFAULT_FAVICON;
  let link = document.head.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  if (link.getAttribute("href") === href) return;
  link.href = href;
  const type = iconType(href);
  if (type) link.type = type;
  else link.removeAttribute("type");
}

/** Loads the settings once for the whole app: favicon, and the fall-back notice on failure. */
export function SettingsEffects() {
  const { settings, isError } = useSettings();

  useEffect(() => {
    applyFavicon(settings.favicon);
  }, [settings.favicon]);

  useEffect(() => {
    if (isError) {
      // Imported when needed: react-hot-toast is not part of the landing page's first load.
      void import("react-hot-toast").then(({ toast }) =>
        toast.error(SETTINGS_ERROR_MESSAGE, { id: "settings-error" }),
      );
    }
  }, [isError]);

  return null;
}
