import { configure, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { mockAdminApi } from "@/test/admin";
import { on } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

// The first render loads the lazy admin bundle; give slow, shared machines time.
configure({ asyncUtilTimeout: 5000 });

async function submitLogin(email = "admin@example.com", password = "secret-pass") {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Email"), email);
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Sign In" }));
  return user;
}

describe("admin login", () => {
  it("is served at /admin/login and /admin/Login", async () => {
    mockAdminApi();
    const first = renderApp("/admin/Login");
    expect(await screen.findByRole("heading", { name: "Admin Login" })).toBeInTheDocument();
    first.unmount();
    renderApp("/admin/login");
    expect(await screen.findByRole("heading", { name: "Admin Login" })).toBeInTheDocument();
  });

  it("checks the fields before calling the server", async () => {
    const api = mockAdminApi();
    renderApp("/admin/login");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Sign In" }));
    expect(await screen.findByText("Please enter a valid email address")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
    expect(api.callsTo(routes.adminSession.login)).toHaveLength(0);
  });

  it("shows the server's message for wrong credentials and stores nothing", async () => {
    mockAdminApi([
      on(routes.adminSession.login, () =>
        jsonResponse({ success: false, message: "Invalid email or password" }, 401),
      ),
    ]);
    renderApp("/admin/login");
    await submitLogin();
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid email or password");
    expect(localStorage.getItem("adminToken")).toBeNull();
  });

  it("says 'Login failed. Please try again.' when the server fails", async () => {
    mockAdminApi([
      on(routes.adminSession.login, () =>
        jsonResponse({ success: false, message: "Internal Server Error" }, 500),
      ),
    ]);
    renderApp("/admin/login");
    await submitLogin();
    expect(await screen.findByRole("alert")).toHaveTextContent("Login failed. Please try again.");
  });

  it("cannot log in without a security token", async () => {
    const api = mockAdminApi([
      on(routes.security.csrfToken, () => jsonResponse({ message: "down" }, 503)),
    ]);
    renderApp("/admin/login");
    await submitLogin();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Failed to initialize security token. Please try refreshing the page",
    );
    expect(api.callsTo(routes.adminSession.login)).toHaveLength(0);
  });

  it("refreshes the CSRF token once and then gives up with the spec's message", async () => {
    let n = 0;
    const api = mockAdminApi([
      on(routes.security.csrfToken, () => jsonResponse({ csrfToken: `csrf-${++n}` })),
      on(routes.adminSession.login, () =>
        jsonResponse({ success: false, message: "Invalid CSRF token" }, 403),
      ),
    ]);
    renderApp("/admin/login");
    await submitLogin();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Login failed after token refresh. Please try again.",
    );
    const logins = api.callsTo(routes.adminSession.login);
    expect(logins).toHaveLength(2);
    expect(logins[0]?.headers.get("csrf-token")).not.toBe(logins[1]?.headers.get("csrf-token"));
  });

  it("says so when the token cannot be refreshed", async () => {
    let n = 0;
    mockAdminApi([
      on(routes.security.csrfToken, () =>
        ++n === 1 ? jsonResponse({ csrfToken: "csrf-1" }) : jsonResponse({}, 503),
      ),
      on(routes.adminSession.login, () =>
        jsonResponse({ success: false, message: "Invalid CSRF token" }, 403),
      ),
    ]);
    renderApp("/admin/login");
    await submitLogin();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Failed to refresh security token. Please reload the page and try again",
    );
  });

  it("logs in after one CSRF refresh", async () => {
    let attempts = 0;
    mockAdminApi([
      on(routes.adminSession.login, () =>
        ++attempts === 1
          ? jsonResponse({ success: false, message: "Invalid CSRF token" }, 403)
          : jsonResponse({
              success: true,
              token: "tok",
              admin: { _id: "a", id: "a", name: "A", email: "admin@example.com", role: "admin" },
            }),
      ),
      on(routes.adminUsers.list, () =>
        jsonResponse({
          success: true,
          data: [],
          pagination: { total: 0, page: 1, limit: 10, pages: 0 },
        }),
      ),
    ]);
    renderApp("/admin/login");
    await submitLogin();
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeInTheDocument();
    expect(localStorage.getItem("adminToken")).toBe("tok");
  });
});
