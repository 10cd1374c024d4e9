// The stored theme before the first paint: src/lib/theme.tsx has the rule and its reasons.
(() => {
  let choice = "system";
  try {
    const stored = localStorage.getItem("theme");
    if (stored === "light" || stored === "dark" || stored === "system") choice = stored;
  } catch {}
  if (location.pathname === "/embed") {
    const asked = new URLSearchParams(location.search).get("theme");
    if (asked === "light" || asked === "dark") choice = asked;
  }
  const dark =
    choice === "dark" ||
    (choice === "system" && !!window.matchMedia?.("(prefers-color-scheme: dark)").matches);
  const root = document.documentElement;
  root.classList.toggle("dark", dark);
  root.style.colorScheme = dark ? "dark" : "light";
})();
