import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { defaultPublicSettings, routes } from "@twinline/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { on } from "@/test/api-mock";
import { jsonResponse, makeUser, mockAuthApi, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";
import { resetTokenProblem } from "./reset-password-page";

const TOKEN = "a".repeat(40);

afterEach(() => {
  vi.useRealTimers();
});

describe("/auth", () => {
  it("has Login and Sign Up tabs, theme toggle, logo home and the persona name in the footer", async () => {
    mockAuthApi([
      on(routes.settings.public, {
        ...defaultPublicSettings,
        aiProfile: { ...defaultPublicSettings.aiProfile, name: "Nova Star" },
      }),
    ]);
    renderApp("/auth");
    const user = userEvent.setup();
    expect(await screen.findByRole("tab", { name: "Login" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    expect(screen.getByTestId("theme-toggle")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Twinline home" })).toHaveAttribute("href", "/");
    expect(await screen.findByTestId("auth-footer")).toHaveTextContent("Nova Star");
    await user.click(screen.getByRole("tab", { name: "Sign Up" }));
    expect(screen.getByLabelText("Name")).toBeInTheDocument();
  });

  it("sends signed-in visitors to /dashboard", async () => {
    storeSession();
    mockAuthApi([on(routes.auth.me, { success: true, data: makeUser() })]);
    const { router } = renderApp("/auth");
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("logs in and goes to /dashboard", async () => {
    mockAuthApi([
      on(routes.auth.login, { success: true, token: "t1", user: makeUser() }),
      on(routes.auth.me, { success: true, data: makeUser() }),
    ]);
    const { router } = renderApp("/auth");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Email"), "loyal@example.com");
    await user.type(screen.getByLabelText("Password"), "secret-pass");
    await user.click(screen.getByRole("button", { name: "Login" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("forgot password shows Check your email and Back to Login", async () => {
    mockAuthApi([on(routes.auth.forgotPassword, { success: true, message: "ok" })]);
    renderApp("/auth");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Forgot password?" }));
    await user.type(screen.getByLabelText("Email"), "loyal@example.com");
    await user.click(screen.getByRole("button", { name: "Send Reset Link" }));
    expect(await screen.findByRole("heading", { name: "Check your email" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Back to Login" }));
    expect(screen.getByRole("tab", { name: "Login" })).toBeInTheDocument();
  });

  it("forgot password failure on the page: Failed to process your request. Please try again.", async () => {
    mockAuthApi([on(routes.auth.forgotPassword, () => new Response("", { status: 500 }))]);
    renderApp("/auth");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Forgot password?" }));
    await user.type(screen.getByLabelText("Email"), "loyal@example.com");
    await user.click(screen.getByRole("button", { name: "Send Reset Link" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Failed to process your request. Please try again.",
    );
  });
});

describe("reset token checks", () => {
  it("names an empty and a short token", () => {
    expect(resetTokenProblem("   ")).toBe("Invalid reset token");
    expect(resetTokenProblem(undefined)).toBe("Invalid reset token");
    expect(resetTokenProblem("short-token")).toBe("Invalid password reset token format.");
    expect(resetTokenProblem("x".repeat(20))).toBeNull();
  });
});

describe("/reset-password/{resettoken}", () => {
  it("shows Invalid Reset Link with Return to Home for a short token", async () => {
    mockAuthApi();
    renderApp("/reset-password/too-short");
    expect(await screen.findByRole("heading", { name: "Invalid Reset Link" })).toBeInTheDocument();
    expect(screen.getByText("Invalid password reset token format.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
  });

  it("shows Invalid reset token for a blank token", async () => {
    mockAuthApi();
    renderApp("/reset-password/%20%20");
    expect(await screen.findByText("Invalid reset token")).toBeInTheDocument();
  });

  it("validates the new password and its confirmation", async () => {
    const { callsTo } = mockAuthApi();
    renderApp(`/reset-password/${TOKEN}`);
    const user = userEvent.setup();
    const password = await screen.findByLabelText("New Password");
    expect(screen.getByText("Must be at least 6 characters.")).toBeInTheDocument();
    await user.type(password, "12345");
    await user.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(screen.getByText("Password must be at least 6 characters long.")).toBeInTheDocument();
    await user.type(password, "6");
    await user.type(screen.getByLabelText("Confirm Password"), "654321");
    await user.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(screen.getByText("Passwords do not match.")).toBeInTheDocument();
    expect(callsTo(routes.auth.resetPassword)).toHaveLength(0);

    // Show / hide toggles.
    expect(password).toHaveAttribute("type", "password");
    await user.click(screen.getByRole("button", { name: "Show new password" }));
    expect(password).toHaveAttribute("type", "text");
  });

  it("resets, signs in, shows the success view and goes to /dashboard after 3 s", async () => {
    const { callsTo } = mockAuthApi([
      on(routes.auth.resetPassword, { success: true, token: "t2", user: makeUser() }),
      on(routes.auth.me, { success: true, data: makeUser() }),
    ]);
    const { router } = renderApp(`/reset-password/${TOKEN}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("New Password"), "brand-new");
    await user.type(screen.getByLabelText("Confirm Password"), "brand-new");
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(
      await screen.findByRole("heading", { name: "Password Reset Successful" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Dashboard" })).toHaveAttribute(
      "href",
      "/dashboard",
    );
    expect(callsTo(routes.auth.resetPassword)[0]?.body).toEqual({
      password: "brand-new",
    });
    expect(localStorage.getItem("userToken")).toBe("t2");
    expect(router.state.location.pathname).toBe(`/reset-password/${TOKEN}`);
    await act(async () => {
      vi.advanceTimersByTime(3000);
    });
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("turns into Invalid Reset Link when the server says the token is invalid or expired", async () => {
    mockAuthApi([
      on(routes.auth.resetPassword, () =>
        jsonResponse(
          { success: false, message: "Password reset link is invalid or has expired" },
          400,
        ),
      ),
    ]);
    renderApp(`/reset-password/${TOKEN}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("New Password"), "brand-new");
    await user.type(screen.getByLabelText("Confirm Password"), "brand-new");
    await user.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByRole("heading", { name: "Invalid Reset Link" })).toBeInTheDocument();
  });

  it("shows the default error when the server gives no message", async () => {
    mockAuthApi([on(routes.auth.resetPassword, () => new Response("", { status: 500 }))]);
    renderApp(`/reset-password/${TOKEN}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("New Password"), "brand-new");
    await user.type(screen.getByLabelText("Confirm Password"), "brand-new");
    await user.click(screen.getByRole("button", { name: "Reset Password" }));
    const form = screen.getByTestId("reset-form");
    expect(await within(form).findByRole("alert")).toHaveTextContent(
      "Failed to reset password. The token may be invalid or expired.",
    );
  });
});
