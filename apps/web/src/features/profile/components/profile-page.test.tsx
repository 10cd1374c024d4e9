import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { on } from "@/test/api-mock";
import { jsonResponse, makeUser, mockAuthApi, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";

afterEach(() => {
  toast.remove();
});

const me = [on(routes.auth.me, { success: true, data: makeUser() })];

describe("/dashboard/profile", () => {
  it("saves the name only when it is non-empty and changed; e-mail is read-only", async () => {
    storeSession();
    const { callsTo } = mockAuthApi([
      ...me,
      on(routes.account.profile, (call) =>
        jsonResponse({
          success: true,
          user: makeUser({ name: (call.body as { name: string }).name }),
        }),
      ),
    ]);
    renderApp("/dashboard/profile");
    const user = userEvent.setup();
    const name = await screen.findByLabelText("Name");
    const save = screen.getByRole("button", { name: "Save Changes" });
    expect(screen.getByLabelText("Email")).toHaveAttribute("readonly");
    expect(save).toBeDisabled();
    await user.clear(name);
    expect(save).toBeDisabled();
    await user.type(name, "Loyal Fan");
    expect(save).toBeDisabled();
    await user.type(name, " Club");
    await user.click(save);
    expect(await screen.findByText("Profile updated successfully")).toBeInTheDocument();
    expect(callsTo(routes.account.profile)[0]?.body).toEqual({ name: "Loyal Fan Club" });
    expect(JSON.parse(localStorage.getItem("userData") ?? "{}").name).toBe("Loyal Fan Club");
  });

  it("toasts Update Failed with the server message, else Failed to update profile", async () => {
    storeSession();
    mockAuthApi([...me, on(routes.account.profile, () => new Response("", { status: 500 }))]);
    renderApp("/dashboard/profile");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Name"), "!");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Failed to update profile")).toBeInTheDocument();
  });

  it("checks the password change: required, 8 characters, matching", async () => {
    storeSession();
    const { callsTo } = mockAuthApi([
      ...me,
      on(routes.account.password, {
        success: true,
        message: "Password updated successfully",
        token: "fresh-token",
      }),
    ]);
    renderApp("/dashboard/profile");
    const user = userEvent.setup();
    const submit = await screen.findByRole("button", { name: "Update Password" });
    await user.click(submit);
    expect(await screen.findByText("Current password is required")).toBeInTheDocument();
    expect(screen.getByText("New password is required")).toBeInTheDocument();
    expect(screen.getByText("Please confirm your new password")).toBeInTheDocument();

    await user.type(screen.getByLabelText("Current Password"), "old-password");
    await user.type(screen.getByLabelText("New Password"), "short");
    await user.type(screen.getByLabelText("Confirm New Password"), "other");
    await user.click(submit);
    expect(await screen.findByText("Password must be at least 8 characters")).toBeInTheDocument();

    await user.clear(screen.getByLabelText("New Password"));
    await user.type(screen.getByLabelText("New Password"), "long-enough");
    await user.click(submit);
    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();
    expect(callsTo(routes.account.password)).toHaveLength(0);

    await user.clear(screen.getByLabelText("Confirm New Password"));
    await user.type(screen.getByLabelText("Confirm New Password"), "long-enough");
    await user.click(submit);
    expect(await screen.findByText("Password updated successfully")).toBeInTheDocument();
    expect(callsTo(routes.account.password)[0]?.body).toEqual({
      currentPassword: "old-password",
      newPassword: "long-enough",
    });
    await waitFor(() => expect(screen.getByLabelText("Current Password")).toHaveValue(""));
  });

  it("tells Google-linked accounts to use Google, and shows the server's refusal", async () => {
    storeSession(makeUser({ googleId: "google-123" }));
    mockAuthApi([
      on(routes.auth.me, { success: true, data: makeUser({ googleId: "google-123" }) }),
      on(routes.account.password, () =>
        jsonResponse(
          {
            success: false,
            message:
              "This account signs in with Google. Please use your Google account to manage your password.",
          },
          400,
        ),
      ),
    ]);
    renderApp("/dashboard/profile");
    const user = userEvent.setup();
    expect(await screen.findByText(/use your Google account/)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Current Password"), "whatever1");
    await user.type(screen.getByLabelText("New Password"), "long-enough");
    await user.type(screen.getByLabelText("Confirm New Password"), "long-enough");
    await user.click(screen.getByRole("button", { name: "Update Password" }));
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText(/This account signs in with Google/)).toBeInTheDocument();
  });
});
