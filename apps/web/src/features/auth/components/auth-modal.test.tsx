import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { AGE_MESSAGES, MINORS_NOTICE, routes } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { on } from "@/test/api-mock";
import { jsonResponse, makeUser, mockAuthApi, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";

const grant = { success: true as const, token: "fresh-token", user: makeUser() };

async function openModal(button: "Login" | "Sign Up") {
  const user = userEvent.setup();
  const header = screen.getByRole("banner");
  await user.click(within(header).getByRole("button", { name: button }));
  const dialog = await screen.findByRole("dialog");
  return { user, dialog };
}

describe("login / sign-up modal", () => {
  it("opens in login or signup mode from the header", async () => {
    mockAuthApi();
    renderApp("/");
    const { user, dialog } = await openModal("Sign Up");
    expect(within(dialog).getByRole("heading", { name: "Create Account" })).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Name")).toBeInTheDocument();
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    const again = await openModal("Login");
    expect(within(again.dialog).getByRole("heading", { name: "Login" })).toBeInTheDocument();
    expect(within(again.dialog).queryByLabelText("Name")).not.toBeInTheDocument();
  });

  it("opens the login modal from the hero buttons for visitors", async () => {
    mockAuthApi();
    renderApp("/");
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Voice Call" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("heading", { name: "Login" })).toBeInTheDocument();
  });

  it("shows the server's message on a wrong password, and switching modes clears it", async () => {
    mockAuthApi([
      on(routes.auth.login, () =>
        jsonResponse({ success: false, message: "Invalid email or password" }, 401),
      ),
    ]);
    renderApp("/");
    const { user, dialog } = await openModal("Login");
    await user.type(within(dialog).getByLabelText("Email"), "loyal@example.com");
    await user.type(within(dialog).getByLabelText("Password"), "wrong-password");
    await user.click(within(dialog).getByRole("button", { name: "Login" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Invalid email or password");

    await user.click(within(dialog).getByRole("button", { name: "Sign Up" }));
    expect(within(dialog).getByRole("heading", { name: "Create Account" })).toBeInTheDocument();
    expect(within(dialog).queryByRole("alert")).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Login" }));
    expect(within(dialog).queryByRole("alert")).not.toBeInTheDocument();
  });

  it("falls back to the spec's message when the server gives none", async () => {
    mockAuthApi([on(routes.auth.signup, () => new Response("", { status: 500 }))]);
    renderApp("/");
    const { user, dialog } = await openModal("Sign Up");
    await user.type(within(dialog).getByLabelText("Name"), "Loyal");
    await user.type(within(dialog).getByLabelText("Email"), "loyal@example.com");
    await user.type(within(dialog).getByLabelText("Password"), "long-enough");
    await user.type(within(dialog).getByLabelText("Date of birth"), "1990-05-17");
    await user.click(within(dialog).getByRole("button", { name: "Create Account" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "Failed to sign up. Please try again.",
    );
  });

  it("validates before calling: required fields, e-mail type", async () => {
    const { callsTo } = mockAuthApi();
    renderApp("/");
    const { user, dialog } = await openModal("Sign Up");
    expect(within(dialog).getByLabelText("Email")).toHaveAttribute("type", "email");
    await user.click(within(dialog).getByRole("button", { name: "Create Account" }));
    expect(await within(dialog).findByText("Name is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Please enter a valid email address")).toBeInTheDocument();
    expect(within(dialog).getByText(AGE_MESSAGES.dateOfBirthRequired)).toBeInTheDocument();
    expect(callsTo(routes.auth.signup)).toHaveLength(0);
  });

  it("asks the date of birth, says minors may be unsuited, and shows an under-age refusal", async () => {
    mockAuthApi([
      on(routes.auth.signup, () =>
        jsonResponse({ success: false, message: AGE_MESSAGES.underAge(18) }, 403),
      ),
    ]);
    renderApp("/");
    const { user, dialog } = await openModal("Sign Up");
    expect(within(dialog).getByLabelText("Date of birth")).toHaveAttribute("type", "date");
    expect(within(dialog).getByTestId("minors-notice")).toHaveTextContent(MINORS_NOTICE);
    await user.type(within(dialog).getByLabelText("Name"), "Young Fan");
    await user.type(within(dialog).getByLabelText("Email"), "young@example.com");
    await user.type(within(dialog).getByLabelText("Password"), "long-enough");
    await user.type(within(dialog).getByLabelText("Date of birth"), "2015-01-01");
    await user.click(within(dialog).getByRole("button", { name: "Create Account" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(AGE_MESSAGES.underAge(18));
  });

  it("signs up, stores the session, closes and goes to /dashboard", async () => {
    const { callsTo } = mockAuthApi([
      on(routes.auth.signup, grant),
      on(routes.auth.me, { success: true, data: makeUser() }),
    ]);
    const { router } = renderApp("/");
    const { user, dialog } = await openModal("Sign Up");
    await user.type(within(dialog).getByLabelText("Name"), "Loyal Fan");
    await user.type(within(dialog).getByLabelText("Email"), " Loyal@Example.com ");
    await user.type(within(dialog).getByLabelText("Password"), "long-enough");
    await user.type(within(dialog).getByLabelText("Date of birth"), "1990-05-17");
    await user.click(within(dialog).getByRole("button", { name: "Create Account" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(callsTo(routes.auth.signup)[0]?.body).toEqual({
      name: "Loyal Fan",
      email: "loyal@example.com",
      password: "long-enough",
      dateOfBirth: "1990-05-17",
    });
    expect(localStorage.getItem("userToken")).toBe("fresh-token");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: /Welcome back, Loyal/ })).toBeInTheDocument();
  });

  it("a server error in the sign-up form clears as soon as a field changes", async () => {
    mockAuthApi([
      on(routes.auth.signup, () =>
        jsonResponse({ success: false, message: "User already exists" }, 409),
      ),
    ]);
    renderApp("/");
    const { user, dialog } = await openModal("Sign Up");
    await user.type(within(dialog).getByLabelText("Name"), "Loyal Fan");
    await user.type(within(dialog).getByLabelText("Email"), "taken@example.com");
    await user.type(within(dialog).getByLabelText("Password"), "long-enough");
    await user.type(within(dialog).getByLabelText("Date of birth"), "1990-05-17");
    await user.click(within(dialog).getByRole("button", { name: "Create Account" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("User already exists");
    await user.clear(within(dialog).getByLabelText("Email"));
    await user.type(within(dialog).getByLabelText("Email"), "other@example.com");
    expect(within(dialog).queryByRole("alert")).not.toBeInTheDocument();
  });

  it("hides the Google button when the server has no client id", async () => {
    mockAuthApi();
    renderApp("/");
    const { dialog } = await openModal("Login");
    await within(dialog).findByRole("button", { name: "Forgot password?" });
    expect(within(dialog).queryByTestId("google-sign-in")).not.toBeInTheDocument();
  });
});

describe("forgot-password modal", () => {
  it("asks for an e-mail, then shows Email Sent!", async () => {
    const { callsTo } = mockAuthApi([
      on(routes.auth.forgotPassword, { success: true, message: "sent" }),
    ]);
    renderApp("/");
    const { user, dialog } = await openModal("Login");
    await user.click(within(dialog).getByRole("button", { name: "Forgot password?" }));
    await user.click(within(dialog).getByRole("button", { name: "Send Reset Link" }));
    expect(within(dialog).getByText("Please enter your email address")).toBeInTheDocument();
    expect(callsTo(routes.auth.forgotPassword)).toHaveLength(0);

    await user.type(within(dialog).getByLabelText("Email"), "loyal@example.com");
    await user.click(within(dialog).getByRole("button", { name: "Send Reset Link" }));
    expect(await within(dialog).findByRole("heading", { name: "Email Sent!" })).toBeInTheDocument();
    expect(dialog).toHaveTextContent(/If an account exists for that email/);
    expect(callsTo(routes.auth.forgotPassword)[0]?.body).toEqual({
      email: "loyal@example.com",
    });
  });

  it("says Failed to send reset link. Please try again. without a server message", async () => {
    mockAuthApi([on(routes.auth.forgotPassword, () => new Response("", { status: 502 }))]);
    renderApp("/");
    const { user, dialog } = await openModal("Login");
    await user.click(within(dialog).getByRole("button", { name: "Forgot password?" }));
    await user.type(within(dialog).getByLabelText("Email"), "loyal@example.com");
    await user.click(within(dialog).getByRole("button", { name: "Send Reset Link" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "Failed to send reset link. Please try again.",
    );
  });
});

describe("landing header when logged in", () => {
  it("shows Dashboard and Logout, and the hero goes to chat and call", async () => {
    storeSession();
    mockAuthApi([on(routes.auth.me, { success: true, data: makeUser() })]);
    renderApp("/");
    const header = screen.getByRole("banner");
    expect(within(header).getByRole("link", { name: "Dashboard" })).toHaveAttribute(
      "href",
      "/dashboard",
    );
    expect(screen.getByRole("link", { name: "Start Chat" })).toHaveAttribute(
      "href",
      "/dashboard/chat",
    );
    expect(screen.getByRole("link", { name: "Voice Call" })).toHaveAttribute(
      "href",
      "/dashboard/call",
    );
    await userEvent.setup().click(within(header).getByRole("button", { name: "Logout" }));
    expect(within(header).getByRole("button", { name: "Login" })).toBeInTheDocument();
    expect(localStorage.getItem("userToken")).toBeNull();
    expect(localStorage.getItem("userData")).toBeNull();
  });
});
