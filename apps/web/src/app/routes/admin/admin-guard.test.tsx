import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes } from "@twinline/contracts";
import { describe, expect, it, vi } from "vitest";
import { detailUser, mockAdminApi, signInAdmin, testAdmin, usersPage } from "@/test/admin";
import { on } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

// The first render loads the lazy admin bundle; give slow, shared machines time.
configure({ asyncUtilTimeout: 5000 });

describe("admin guard", () => {
  it("sends a visitor without a token to /admin/Login and returns there after login", async () => {
    const api = mockAdminApi([
      on(routes.adminSession.login, () =>
        jsonResponse({ success: true, token: "fresh-token", admin: testAdmin }),
      ),
      on(routes.adminUsers.detail, () => jsonResponse({ success: true, data: detailUser() })),
    ]);
    const { router } = renderApp("/admin/users/u1?tab=credits");
    expect(await screen.findByRole("heading", { name: "Admin Login" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/admin/Login");
    expect(api.callsTo(routes.adminSession.verifyToken)).toHaveLength(0);

    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Email"), " Admin@Example.com ");
    await user.type(screen.getByLabelText("Password"), "secret-pass");
    await user.click(screen.getByRole("button", { name: "Sign In" }));

    expect(await screen.findByRole("heading", { name: "User Details" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/admin/users/u1");
    expect(router.state.location.search).toBe("?tab=credits");
    const [login] = api.callsTo(routes.adminSession.login);
    expect(login?.body).toEqual({ email: "admin@example.com", password: "secret-pass" });
    expect(login?.headers.get("csrf-token")).toBe("csrf-1");
    expect(localStorage.getItem("adminToken")).toBe("fresh-token");
    expect(sessionStorage.getItem("adminToken")).toBe("fresh-token");
    expect(JSON.parse(localStorage.getItem("adminData") ?? "{}")).toMatchObject({
      email: "admin@example.com",
    });
    // The guard checked the new token with the server.
    expect(api.callsTo(routes.adminSession.verifyToken)[0]?.headers.get("authorization")).toBe(
      "Bearer fresh-token",
    );
  });

  it("goes to /admin/dashboard after a direct login", async () => {
    mockAdminApi([
      on(routes.adminSession.login, () =>
        jsonResponse({ success: true, token: "t2", admin: testAdmin }),
      ),
      on(routes.adminUsers.list, () => jsonResponse(usersPage([]))),
    ]);
    const { router } = renderApp("/admin/login");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Email"), "admin@example.com");
    await user.type(screen.getByLabelText("Password"), "secret-pass");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/admin/dashboard");
  });

  it("removes a token the server reports invalid and redirects to login", async () => {
    signInAdmin("stale");
    mockAdminApi([
      on(routes.adminSession.verifyToken, () =>
        jsonResponse({ success: false, message: "Invalid token" }, 401),
      ),
    ]);
    const { router } = renderApp("/admin/users");
    expect(await screen.findByRole("heading", { name: "Admin Login" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/admin/Login");
    expect(router.state.location.state).toEqual({ from: "/admin/users" });
    expect(localStorage.getItem("adminToken")).toBeNull();
    expect(localStorage.getItem("adminData")).toBeNull();
    expect(sessionStorage.getItem("adminToken")).toBeNull();
  });

  it("treats valid: false as invalid too", async () => {
    signInAdmin("stale");
    mockAdminApi([
      on(routes.adminSession.verifyToken, () =>
        jsonResponse({ success: true, valid: false, admin: testAdmin }),
      ),
    ]);
    renderApp("/admin/users");
    expect(await screen.findByRole("heading", { name: "Admin Login" })).toBeInTheDocument();
    expect(localStorage.getItem("adminToken")).toBeNull();
  });

  it("shows a spinner while the check runs", async () => {
    signInAdmin();
    mockAdminApi([on(routes.adminSession.verifyToken, () => new Promise<Response>(() => {}))]);
    renderApp("/admin/users");
    expect(await screen.findByTestId("admin-guard-spinner")).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Checking your admin session");
    expect(screen.queryByRole("heading", { name: "Users" })).not.toBeInTheDocument();
  });

  it("offers a retry, not a logout, when the check cannot reach the server", async () => {
    signInAdmin();
    let fail = true;
    mockAdminApi([
      on(routes.adminSession.verifyToken, () =>
        fail
          ? jsonResponse({ success: false, message: "Internal Server Error" }, 500)
          : jsonResponse({ success: true, valid: true, admin: testAdmin }),
      ),
      on(routes.adminUsers.list, () => jsonResponse(usersPage([]))),
    ]);
    renderApp("/admin/users");
    const retry = await screen.findByRole("button", { name: "Try again" });
    expect(localStorage.getItem("adminToken")).toBe("admin-token");
    fail = false;
    await userEvent.setup().click(retry);
    expect(await screen.findByRole("heading", { name: "Users", level: 1 })).toBeInTheDocument();
  });

  it("shows the 404 screen inside the layout for unknown admin paths", async () => {
    signInAdmin();
    mockAdminApi();
    renderApp("/admin/no-such-screen");
    const notFound = await screen.findByTestId("not-found");
    expect(
      within(notFound).getByRole("heading", { name: "Oops! Page not found" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Admin" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Subscription History" })).toHaveAttribute(
      "href",
      "/admin/subscription-history",
    );
  });

  it("sends the admin to login when any admin call answers 401", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminUsers.list, () => jsonResponse({ success: false, message: "Expired" }, 401)),
    ]);
    const { router } = renderApp("/admin/users?page=2");
    expect(await screen.findByRole("heading", { name: "Admin Login" })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ from: "/admin/users?page=2" });
  });
});

describe("admin layout", () => {
  it("logs out: admin tokens and session storage cleared, back to /admin/login", async () => {
    signInAdmin();
    sessionStorage.setItem("something", "x");
    const api = mockAdminApi([
      on(routes.adminUsers.list, () => jsonResponse(usersPage([]))),
      on(routes.adminSession.logout, () => jsonResponse({ success: true, message: "Logged out" })),
    ]);
    const { router } = renderApp("/admin/users");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Logout" }));
    expect(await screen.findByRole("heading", { name: "Admin Login" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/admin/login");
    // The server ends the token too, called with the token as it was before it was cleared.
    await waitFor(() => expect(api.callsTo(routes.adminSession.logout)).toHaveLength(1));
    expect(api.callsTo(routes.adminSession.logout)[0]?.headers.get("authorization")).toBe(
      "Bearer admin-token",
    );
    expect(localStorage.getItem("adminToken")).toBeNull();
    expect(localStorage.getItem("adminData")).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });

  it("collapses the sidebar and remembers it", async () => {
    signInAdmin();
    mockAdminApi([on(routes.adminUsers.list, () => jsonResponse(usersPage([])))]);
    const first = renderApp("/admin/users");
    const sidebar = await screen.findByTestId("admin-sidebar");
    expect(sidebar).toHaveAttribute("data-state", "expanded");
    expect(sidebar).toHaveClass("w-64");
    await userEvent.setup().click(screen.getByRole("button", { name: "Collapse sidebar" }));
    expect(sidebar).toHaveAttribute("data-state", "collapsed");
    expect(localStorage.getItem("adminSidebarOpen")).toBe("false");
    first.unmount();

    renderApp("/admin/users");
    expect(await screen.findByTestId("admin-sidebar")).toHaveAttribute("data-state", "collapsed");
    expect(screen.getByRole("button", { name: "Expand sidebar" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
  });

  it("is closed under 768 px and opens as a drawer that Escape closes", async () => {
    signInAdmin();
    localStorage.setItem("adminSidebarOpen", "true");
    vi.spyOn(window, "matchMedia").mockImplementation(
      (query: string) =>
        ({
          matches: query.includes("max-width"),
          media: query,
          addEventListener: () => {},
          removeEventListener: () => {},
        }) as unknown as MediaQueryList,
    );
    mockAdminApi([on(routes.adminUsers.list, () => jsonResponse(usersPage([])))]);
    renderApp("/admin/users");
    const open = await screen.findByRole("button", { name: "Open menu" });
    expect(screen.queryByTestId("admin-sidebar")).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(open);
    expect(await screen.findByRole("dialog", { name: "Admin menu" })).toBeInTheDocument();
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByTestId("admin-sidebar")).not.toBeInTheDocument());
    await waitFor(() => expect(open).toHaveFocus());
  });

  it("gives focus back to Change Password when its dialog closes on Escape", async () => {
    signInAdmin();
    mockAdminApi([on(routes.adminUsers.list, () => jsonResponse(usersPage([])))]);
    renderApp("/admin/users");
    const opener = await screen.findByRole("button", { name: "Change Password" });
    const user = userEvent.setup();
    await user.click(opener);
    await screen.findByRole("dialog", { name: "Change Password" });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });
});
