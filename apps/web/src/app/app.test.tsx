import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { defaultPublicSettings } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockApi, renderApp } from "@/test/render";
import { AppProvider } from "./provider";

afterEach(() => {
  toast.remove();
});

function BrokenRoute(): never {
  throw new Error("Kaboom in the route");
}

function BrokenProvider(): never {
  throw new Error("Provider exploded");
}

describe("settings loading", () => {
  it("falls back to the defaults and says so when the settings cannot be loaded", async () => {
    mockApi(null);
    renderApp("/");
    expect(await screen.findByText("Failed to load settings. Using defaults.")).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("AI Celebrity Assistant");
    expect(screen.getAllByTestId("feature-card")).toHaveLength(6);
  });

  it("shows the defaults while loading, without a notice", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() => new Promise<Response>(() => {})),
    );
    renderApp("/");
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("AI Celebrity Assistant");
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    expect(screen.queryByText("Failed to load settings. Using defaults.")).not.toBeInTheDocument();
  });

  it("uses the favicon from settings", async () => {
    mockApi({ ...defaultPublicSettings, favicon: "/uploads/icon.png" });
    renderApp("/");
    await waitFor(() =>
      expect(document.head.querySelector('link[rel~="icon"]')).toHaveAttribute(
        "href",
        "/uploads/icon.png",
      ),
    );
  });
});

describe("logo", () => {
  it("shows the built-in mark without logos, and the dark logo in the dark theme", async () => {
    localStorage.setItem("theme", "dark");
    mockApi({
      ...defaultPublicSettings,
      lightThemeLogo: "/uploads/light.png",
      darkThemeLogo: "/uploads/dark.png",
    });
    renderApp("/");
    await waitFor(() => {
      const logos = screen.getAllByRole("img", { name: "Twinline" });
      expect(logos[0]).toHaveAttribute("src", "/uploads/dark.png");
    });
  });

  it("shows the light logo in the light theme and the built-in mark when none is set", async () => {
    localStorage.setItem("theme", "light");
    mockApi({ ...defaultPublicSettings, lightThemeLogo: "/uploads/light.png" });
    const { unmount } = renderApp("/");
    await waitFor(() =>
      expect(screen.getAllByRole("img", { name: "Twinline" })[0]).toHaveAttribute(
        "src",
        "/uploads/light.png",
      ),
    );
    unmount();
    mockApi(defaultPublicSettings);
    renderApp("/");
    expect(screen.queryByRole("img", { name: "Twinline" })).not.toBeInTheDocument();
    expect(screen.getAllByText("Twinline").length).toBeGreaterThan(0);
  });
});

describe("routes", () => {
  it.each(["/no-such-page", "/dashboard-older"])("shows the 404 screen at %s", async (path) => {
    mockApi(defaultPublicSettings);
    renderApp(path);
    const screenEl = await screen.findByTestId("not-found");
    expect(screenEl).toHaveTextContent("404");
    expect(screen.getByRole("heading", { name: "Oops! Page not found" })).toBeInTheDocument();
  });

  it("takes the visitor home from the 404 screen", async () => {
    mockApi(defaultPublicSettings);
    const { router } = renderApp("/nowhere");
    await userEvent.click(await screen.findByRole("link", { name: /home/i }));
    expect(router.state.location.pathname).toBe("/");
    expect(await screen.findAllByTestId("feature-card")).toHaveLength(6);
  });

  it("shows the error screen when a route fails to render", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    mockApi(defaultPublicSettings);
    renderApp("/", [{ index: true, Component: BrokenRoute }]);
    expect(
      await screen.findByRole("heading", { name: "Something went wrong" }),
    ).toBeInTheDocument();
    expect(screen.getByText("Please try refreshing the page")).toBeInTheDocument();
    expect(screen.getByText("Kaboom in the route")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Refresh Page" })).toBeInTheDocument();
  });
});

describe("top-level error boundary", () => {
  it("catches errors outside the router and offers a refresh", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => jsonResponse(defaultPublicSettings)),
    );
    const reload = vi.fn();
    vi.stubGlobal("location", { ...window.location, reload });
    render(
      <AppProvider>
        <BrokenProvider />
      </AppProvider>,
    );
    expect(screen.getByRole("heading", { name: "Something went wrong" })).toBeInTheDocument();
    expect(screen.getByText("Provider exploded")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Refresh Page" }));
    expect(reload).toHaveBeenCalled();
  });
});
