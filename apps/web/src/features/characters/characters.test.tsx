import { configure, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { on } from "@/test/api-mock";
import { makeUser, mockAuthApi, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";
import { CHARACTER_TEXT } from "./components/character-page";
import { FAVORITES_KEY } from "./data";

configure({ asyncUtilTimeout: 5000 });
afterEach(() => {
  toast.remove();
  vi.unstubAllGlobals();
});

// Lazy bundles, typing and clicks: give slow, shared machines time.
const SLOW = { timeout: 20_000 };

describe("character pages", () => {
  it(
    "shows character 1: name, premium badge, attribute bars, stories, similar characters",
    SLOW,
    async () => {
      mockAuthApi();
      renderApp("/character/1");
      expect(
        await screen.findByRole("heading", { name: "Lyra Thornwood", level: 1 }),
      ).toBeInTheDocument();
      expect(screen.getAllByText("Premium").length).toBeGreaterThan(0);
      const bars = screen.getAllByRole("meter");
      expect(bars.map((bar) => bar.getAttribute("aria-label"))).toEqual([
        "Intelligence",
        "Strength",
        "Agility",
        "Charisma",
        "Magic",
      ]);
      expect(screen.getByRole("meter", { name: "Intelligence" })).toHaveAttribute("value", "92");
      expect(screen.getByRole("heading", { name: "Background Story" })).toBeInTheDocument();
      expect(screen.getByRole("button", { name: /Voice Chat/ })).toBeEnabled();
      // A premium character: no upgrade card.
      expect(screen.queryByRole("heading", { name: /Upgrade to Premium/ })).toBeNull();
      expect(screen.getByRole("link", { name: /Seren Vale/ })).toHaveAttribute(
        "href",
        "/character/3",
      );
    },
  );

  it(
    "character 2: Voice Chat disabled and marked Premium, the upgrade card shown",
    SLOW,
    async () => {
      mockAuthApi();
      renderApp("/character/2");
      const voice = await screen.findByRole("button", { name: /Voice Chat/ });
      expect(voice).toBeDisabled();
      expect(within(voice).getByText("Premium")).toBeInTheDocument();
      expect(screen.getByRole("heading", { name: /Upgrade to Premium/ })).toBeInTheDocument();
    },
  );

  it("id 3 says Character not found with a link home", SLOW, async () => {
    mockAuthApi();
    renderApp("/character/3");
    expect(
      await screen.findByRole("heading", { name: CHARACTER_TEXT.notFound }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /Return to Home/ })).toHaveAttribute("href", "/");
  });

  it(
    "Text Chat goes to the dashboard's chat carrying initialTab and characterId",
    SLOW,
    async () => {
      storeSession(makeUser());
      mockAuthApi([on(routes.auth.me, { success: true, data: makeUser() })]);
      const { router } = renderApp("/character/1");
      await userEvent.setup().click(await screen.findByRole("button", { name: /Text Chat/ }));
      await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/chat"));
      expect(router.state.location.state).toMatchObject({ initialTab: "chat", characterId: "1" });
    },
  );

  it(
    "Favorite is kept per browser; Share copies the link when there is no Web Share",
    SLOW,
    async () => {
      mockAuthApi();
      const user = userEvent.setup();
      const writeText = vi.fn(async (_text: string) => {});
      Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
      Object.defineProperty(navigator, "share", { value: undefined, configurable: true });
      const { unmount } = renderApp("/character/1");
      await user.click(await screen.findByRole("button", { name: "Favorite" }));
      expect(screen.getByRole("button", { name: "Favorited" })).toHaveAttribute(
        "aria-pressed",
        "true",
      );
      expect(JSON.parse(localStorage.getItem(FAVORITES_KEY) ?? "[]")).toEqual([1]);
      await user.click(screen.getByRole("button", { name: "Share" }));
      expect(writeText).toHaveBeenCalledWith(expect.stringContaining("/character/1"));
      expect(await screen.findByText(CHARACTER_TEXT.linkCopied)).toBeInTheDocument();
      unmount();
      renderApp("/character/1");
      expect(await screen.findByRole("button", { name: "Favorited" })).toBeInTheDocument();
    },
  );

  it("a picture that fails to load becomes a placeholder", SLOW, async () => {
    mockAuthApi();
    renderApp("/character/1");
    const image = await screen.findByRole("img", { name: "Lyra Thornwood" });
    fireEvent.error(image);
    expect(await screen.findAllByTestId("character-placeholder")).not.toHaveLength(0);
  });
});

describe("alternate header layout", () => {
  it("links /characters, /premium, /about; Guest Login opens the login modal", SLOW, async () => {
    mockAuthApi();
    renderApp("/characters");
    expect(
      await screen.findByRole("heading", { name: "Characters", level: 1 }),
    ).toBeInTheDocument();
    const nav = screen.getByRole("navigation", { name: "Site" });
    expect(
      within(nav)
        .getAllByRole("link")
        .map((a) => a.getAttribute("href")),
    ).toEqual(["/characters", "/premium", "/about"]);
    expect(screen.getByText(/© 2023/)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Guest Login" }));
    expect(await screen.findByRole("dialog")).toBeInTheDocument();
  });

  it("/premium and /about are real pages", SLOW, async () => {
    mockAuthApi();
    const { router } = renderApp("/premium");
    expect(await screen.findByRole("heading", { name: "Premium", level: 1 })).toBeInTheDocument();
    await router.navigate("/about");
    expect(await screen.findByRole("heading", { name: "About Us", level: 1 })).toBeInTheDocument();
  });
});
