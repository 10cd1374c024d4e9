import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { readStorage, writeStorage } from "@/lib/storage";

/** Under this width the sidebar closes by itself and opens over the page (admin-side spec, section 9). */
export const SIDEBAR_MOBILE_BREAKPOINT_PX = 768;
/** Where the sidebar's open or collapsed state is remembered (wide screens). */
export const SIDEBAR_STORAGE_KEY = "adminSidebarOpen";

const MOBILE_QUERY = `(max-width: ${SIDEBAR_MOBILE_BREAKPOINT_PX - 0.02}px)`;

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== "function") return () => {};
  const media = window.matchMedia(MOBILE_QUERY);
  media.addEventListener?.("change", onChange);
  return () => media.removeEventListener?.("change", onChange);
}

function isMobileNow(): boolean {
  if (typeof window.matchMedia === "function") return window.matchMedia(MOBILE_QUERY).matches;
  return window.innerWidth < SIDEBAR_MOBILE_BREAKPOINT_PX;
}

export interface SidebarState {
  /** Under 768 px: the sidebar is a drawer over the page. */
  isMobile: boolean;
  open: boolean;
  setOpen: (open: boolean) => void;
  toggle: () => void;
}

/**
 * The sidebar's state. Wide screens: expanded (w-64) or collapsed to icons, remembered across
 * visits. Under 768 px: closed on arrival and whenever the window narrows, opened as a drawer.
 */
export function useSidebar(): SidebarState {
  const isMobile = useSyncExternalStore(subscribe, isMobileNow, () => false);
  const [desktopOpen, setDesktopOpen] = useState(
    () => readStorage(SIDEBAR_STORAGE_KEY) !== "false",
  );
  const [mobileOpen, setMobileOpen] = useState(false);

  // Auto-close when the window narrows below the breakpoint.
  useEffect(() => {
    if (isMobile) setMobileOpen(false);
  }, [isMobile]);

  const setOpen = useCallback(
    (open: boolean) => {
      if (isMobile) {
        setMobileOpen(open);
      } else {
        setDesktopOpen(open);
        writeStorage(SIDEBAR_STORAGE_KEY, String(open));
      }
    },
    [isMobile],
  );
  const open = isMobile ? mobileOpen : desktopOpen;
  const toggle = useCallback(() => setOpen(!open), [open, setOpen]);
  return { isMobile, open, setOpen, toggle };
}
