import { render, screen } from "@testing-library/react";
import { routes } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { on } from "@/test/api-mock";
import { AuthErrorScreen } from "./auth-error-screen";

describe("AuthErrorScreen", () => {
  it("tells the user authentication failed and to refresh", () => {
    render(<AuthErrorScreen />);
    expect(screen.getByRole("heading", { name: "Authentication Error" })).toBeInTheDocument();
    expect(screen.getByText("Please refresh the page.")).toBeInTheDocument();
  });
});

describe("start-up refresh failures", () => {
  it("shows the authentication error screen when GET /api/auth/me fails with a 500", async () => {
    const { jsonResponse, mockAuthApi, storeSession } = await import("@/test/auth");
    const { renderApp } = await import("@/test/render");
    storeSession();
    mockAuthApi([
      on(routes.auth.me, () => jsonResponse({ success: false, message: "Server down" }, 500)),
    ]);
    renderApp("/dashboard");
    expect(
      await screen.findByRole("heading", { name: "Authentication Error" }),
    ).toBeInTheDocument();
  });
});
