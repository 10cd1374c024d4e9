// Applies the stored theme before the first paint (loaded synchronously from <head>).
// localStorage "theme" holds "light", "dark" or "system" (the default: follow the OS).
// Kept in step with src/lib/theme.tsx.
(() => {
  let choice = "system";
  try {
    const stored = window.localStorage.getItem("theme");
    if (stored === "light" || stored === "dark" || stored === "system") choice = stored;
  } catch {
    // Storage can be unavailable (privacy modes); fall back to the system preference.
  }
  // The embed page (decision 0085) follows the theme its host page passed as ?theme=.
  if (window.location.pathname === "/embed") {
    const asked = new URLSearchParams(window.location.search).get("theme");
    if (asked === "light" || asked === "dark") choice = asked;
  }
  const dark =
    choice === "dark" ||
    (choice === "system" &&
      typeof window.matchMedia === "function" &&
      window.matchMedia("(prefers-color-scheme: dark)").matches);
  const root = document.documentElement;
  root.classList.toggle("dark", dark);
  root.style.colorScheme = dark ? "dark" : "light";
})();
