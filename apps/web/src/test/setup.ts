import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { resetApiMocks } from "./api-mock";

// jsdom lacks these; the app uses them for the theme and scroll restoration.
if (!window.matchMedia) {
  Object.defineProperty(window, "matchMedia", {
    configurable: true,
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

// Lazy screens (the login modal, routes) are transformed on their first import: on a loaded
// two-core machine that can outlast Testing Library's 1 s default wait. Waiting longer changes
// no assertion, only how long a test waits for what it asserts.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  resetApiMocks();
  localStorage.clear();
  sessionStorage.clear();
  document.documentElement.className = "";
  document.documentElement.style.colorScheme = "";
});
