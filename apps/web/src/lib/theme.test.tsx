import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import script from "../../public/theme-init.js?raw";
import { ThemeProvider } from "./theme";

const originalMatchMedia = window.matchMedia;

function prefersDark(dark: boolean) {
  window.matchMedia = vi.fn((query: string) => ({
    matches: dark && query.includes("dark"),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

afterEach(() => {
  window.matchMedia = originalMatchMedia;
});

function renderToggle() {
  return render(
    <ThemeProvider>
      <ThemeToggle />
    </ThemeProvider>,
  );
}

describe("theme", () => {
  it("follows the system preference by default", () => {
    prefersDark(true);
    renderToggle();
    expect(document.documentElement).toHaveClass("dark");
    expect(document.documentElement.style.colorScheme).toBe("dark");
    expect(screen.getByRole("button", { name: "Switch to light theme" })).toBeInTheDocument();
  });

  it("toggles dark, then back to the system's, and stores the choice under `theme`", async () => {
    prefersDark(false);
    renderToggle();
    expect(document.documentElement).not.toHaveClass("dark");
    await userEvent.click(screen.getByRole("button", { name: "Switch to dark theme" }));
    expect(document.documentElement).toHaveClass("dark");
    expect(localStorage.getItem("theme")).toBe("dark");
    await userEvent.click(screen.getByRole("button", { name: "Use the system theme" }));
    expect(document.documentElement).not.toHaveClass("dark");
    expect(document.documentElement.style.colorScheme).toBe("light");
    expect(localStorage.getItem("theme")).toBe("system");
  });

  it("goes light, dark, then back to the system's theme", async () => {
    prefersDark(true);
    localStorage.setItem("theme", "light");
    renderToggle();
    await userEvent.click(screen.getByRole("button", { name: "Switch to dark theme" }));
    expect(localStorage.getItem("theme")).toBe("dark");
    await userEvent.click(screen.getByRole("button", { name: "Use the system theme" }));
    expect(localStorage.getItem("theme")).toBe("system");
    expect(document.documentElement).toHaveClass("dark");
    expect(screen.getByTestId("theme-toggle")).toHaveAccessibleName("Switch to light theme");
  });

  it("keeps the stored choice over the system preference after a reload", () => {
    prefersDark(true);
    localStorage.setItem("theme", "light");
    renderToggle();
    expect(document.documentElement).not.toHaveClass("dark");
    expect(screen.getByTestId("theme-toggle")).toHaveAccessibleName("Switch to dark theme");
  });
});

describe("public/theme-init.js (runs before the first paint)", () => {
  const run = () => new Function(script)();

  it.each([
    ["dark", false, true],
    ["light", true, false],
    ["system", true, true],
    ["system", false, false],
    [null, true, true],
    ["bogus", false, false],
  ] as const)("stored %s with a dark OS %s gives dark %s", (stored, osDark, expected) => {
    prefersDark(osDark);
    if (stored) localStorage.setItem("theme", stored);
    run();
    expect(document.documentElement.classList.contains("dark")).toBe(expected);
    expect(document.documentElement.style.colorScheme).toBe(expected ? "dark" : "light");
  });
});
