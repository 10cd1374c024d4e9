import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { defaultPublicSettings, routes } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { callRoute } from "@/lib/api-client";
import { on } from "@/test/api-mock";
import { jsonResponse, makeUser, mockAuthApi, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";
import { legacyTabPath } from "../nav";

const me = on(routes.auth.me, { success: true, data: makeUser({ credits: 240 }) });

describe("dashboard shell", () => {
  it("sends visitors to /", async () => {
    mockAuthApi();
    const { router } = renderApp("/dashboard/profile");
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("lists every sidebar entry and Logout, and greets the user with their credits", async () => {
    storeSession();
    mockAuthApi([me]);
    renderApp("/dashboard");
    const nav = (await screen.findAllByRole("navigation", { name: "Dashboard navigation" }))[0];
    if (!nav) throw new Error("no navigation");
    const labels = within(nav)
      .getAllByRole("link")
      .map((link) => link.textContent);
    expect(labels).toEqual([
      "Dashboard",
      "Chat",
      "Call",
      "Call History",
      "Credit and Billing",
      "Transaction History",
      "My Profile",
    ]);
    expect(within(nav).getByRole("button", { name: "Logout" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Welcome back, Loyal!" })).toBeInTheDocument();
    // Stored 100 first, then the refreshed 240 from GET /api/auth/me.
    await waitFor(() => expect(screen.getByTestId("credit-balance")).toHaveTextContent("240"));
  });

  it("sends unknown and not-yet-built sub-routes to /dashboard", async () => {
    storeSession();
    mockAuthApi([me]);
    for (const path of ["/dashboard/nope", "/dashboard/nope/deeper"]) {
      const { router, unmount } = renderApp(path);
      await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
      unmount();
    }
  });

  it("logs out from the sidebar: storage cleared, back to /", async () => {
    storeSession();
    const apiMock = mockAuthApi([
      me,
      on(routes.auth.logout, { success: true, message: "Logged out" }),
    ]);
    const { router } = renderApp("/dashboard");
    const nav = (await screen.findAllByRole("navigation", { name: "Dashboard navigation" }))[0];
    if (!nav) throw new Error("no navigation");
    await userEvent.setup().click(within(nav).getByRole("button", { name: "Logout" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(localStorage.getItem("userToken")).toBeNull();
    expect(localStorage.getItem("userData")).toBeNull();
    // The server ends the token too, sent with the token as it was before it was cleared.
    await waitFor(() => expect(apiMock.callsTo(routes.auth.logout)).toHaveLength(1));
    expect(apiMock.callsTo(routes.auth.logout)[0]?.headers.get("authorization")).toBe(
      "Bearer user-token",
    );
  });

  it("leaves the dashboard for / when any call answers 401", async () => {
    storeSession();
    mockAuthApi([
      me,
      on(routes.billing.creditBalance, () =>
        jsonResponse({ success: false, message: "Not authorized" }, 401),
      ),
    ]);
    const { router } = renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Welcome back, Loyal!" });
    await expect(callRoute(routes.billing.creditBalance)).rejects.toMatchObject({ status: 401 });
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(localStorage.getItem("userToken")).toBeNull();
  });

  it("opens the mobile menu with the social links from settings; Escape closes it", async () => {
    storeSession();
    mockAuthApi([
      me,
      on(routes.settings.public, {
        ...defaultPublicSettings,
        socialMediaProfiles: {
          ...defaultPublicSettings.socialMediaProfiles,
          instagram: "instagram.com/nova",
        },
      }),
    ]);
    renderApp("/dashboard");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Open menu" }));
    const menu = await screen.findByRole("dialog", { name: "Menu" });
    expect(within(menu).getByRole("link", { name: "My Profile" })).toBeInTheDocument();
    expect(await within(menu).findByRole("link", { name: "Instagram" })).toHaveAttribute(
      "href",
      "https://instagram.com/nova",
    );
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });
});

describe("legacy routes", () => {
  it("maps the tabs of /dashboard-old", () => {
    expect(legacyTabPath("overview")).toBe("/dashboard");
    expect(legacyTabPath("chat")).toBe("/dashboard/chat");
    expect(legacyTabPath("call")).toBe("/dashboard/call");
    expect(legacyTabPath("call-history")).toBe("/dashboard/call-history");
    expect(legacyTabPath("credits")).toBe("/dashboard/credits");
    expect(legacyTabPath("profile")).toBe("/dashboard/profile");
    expect(legacyTabPath("toString")).toBe("/dashboard");
    expect(legacyTabPath(null)).toBe("/dashboard");
  });

  it("redirects /dashboard-old?tab=profile for users and to / for visitors", async () => {
    storeSession();
    mockAuthApi([me]);
    const first = renderApp("/dashboard-old?tab=profile");
    await waitFor(() => expect(first.router.state.location.pathname).toBe("/dashboard/profile"));
    first.unmount();
    localStorage.clear();
    const second = renderApp("/dashboard-old?tab=profile");
    await waitFor(() => expect(second.router.state.location.pathname).toBe("/"));
  });

  it("shows Redirecting to new dashboard... while the session is checked", async () => {
    storeSession(null);
    mockAuthApi([on(routes.auth.me, () => new Promise<Response>(() => {}))]);
    renderApp("/dashboard-old?tab=chat");
    expect(await screen.findByText("Redirecting to new dashboard...")).toBeInTheDocument();
  });

  it.each(["/chat", "/character-chat/2"])("redirects %s towards /dashboard/chat", async (path) => {
    storeSession();
    mockAuthApi([me]);
    const { router } = renderApp(path);
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/chat"));
  });
});
