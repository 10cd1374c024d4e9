import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes } from "@twinline/contracts";
import toast, { Toaster } from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockApi, on } from "@/test/api-mock";
import { jsonResponse, testQueryClient } from "@/test/render";
import { ChangePasswordDialog } from "./change-password-dialog";

afterEach(() => {
  toast.remove();
});

function setup(answer: () => Response) {
  const api = mockApi([on(routes.adminSession.changePassword, () => answer())]);
  const onOpenChange = vi.fn();
  render(
    <QueryClientProvider client={testQueryClient()}>
      <ChangePasswordDialog open onOpenChange={onOpenChange} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { api, onOpenChange, user: userEvent.setup() };
}

const put = (api: ReturnType<typeof mockApi>) => api.callsTo(routes.adminSession.changePassword);

describe("Change Password dialog", () => {
  it("keeps Save disabled and explains the rule until the fields are valid", async () => {
    const { api, user } = setup(() => jsonResponse({ success: true, message: "ok" }));
    const dialog = screen.getByRole("dialog", { name: "Change Password" });
    const submit = screen.getByRole("button", { name: "Change Password" });
    expect(dialog).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await user.type(screen.getByLabelText("Current Password"), "old-pass");
    expect(screen.getByTestId("change-password-rule")).toHaveTextContent("All fields are required");
    await user.type(screen.getByLabelText("New Password"), "abc");
    await user.type(screen.getByLabelText("Confirm New Password"), "abd");
    expect(screen.getByTestId("change-password-rule")).toHaveTextContent(
      "New passwords do not match",
    );
    await user.clear(screen.getByLabelText("Confirm New Password"));
    await user.type(screen.getByLabelText("Confirm New Password"), "abc");
    expect(screen.getByTestId("change-password-rule")).toHaveTextContent(
      "New password must be at least 6 characters long",
    );
    expect(submit).toBeDisabled();
    await user.keyboard("{Enter}");
    expect(put(api)).toHaveLength(0);

    await user.type(screen.getByLabelText("New Password"), "def");
    await user.type(screen.getByLabelText("Confirm New Password"), "def");
    expect(screen.queryByTestId("change-password-rule")).not.toBeInTheDocument();
    expect(submit).toBeEnabled();
  });

  it("sends currentPassword and newPassword, then closes", async () => {
    const { api, onOpenChange, user } = setup(() =>
      jsonResponse({
        success: true,
        message: "Password changed successfully",
        token: "fresh-admin-token",
      }),
    );
    await user.type(screen.getByLabelText("Current Password"), "old-pass");
    await user.type(screen.getByLabelText("New Password"), "new-pass");
    await user.type(screen.getByLabelText("Confirm New Password"), "new-pass");
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    const [call] = put(api);
    expect(call?.method).toBe("PUT");
    expect(call?.body).toEqual({
      currentPassword: "old-pass",
      newPassword: "new-pass",
    });
    expect(await screen.findByText("Password changed successfully")).toBeInTheDocument();
    // The change ends earlier tokens: the fresh one replaces the stored one.
    expect(localStorage.getItem("adminToken")).toBe("fresh-admin-token");
  });

  it("keeps the admin signed in with the fresh token the change answers", async () => {
    localStorage.setItem("adminToken", "old-token");
    sessionStorage.setItem("adminToken", "old-token");
    const { onOpenChange, user } = setup(() =>
      jsonResponse({ success: true, message: "Password changed successfully", token: "new-token" }),
    );
    await user.type(screen.getByLabelText("Current Password"), "old-pass");
    await user.type(screen.getByLabelText("New Password"), "new-pass");
    await user.type(screen.getByLabelText("Confirm New Password"), "new-pass");
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(localStorage.getItem("adminToken")).toBe("new-token");
    expect(sessionStorage.getItem("adminToken")).toBe("new-token");
  });

  it("says Failed to change password when the server refuses", async () => {
    const { onOpenChange, user } = setup(() =>
      jsonResponse({ success: false, message: "Current password is incorrect" }, 400),
    );
    await user.type(screen.getByLabelText("Current Password"), "wrong-pass");
    await user.type(screen.getByLabelText("New Password"), "new-pass");
    await user.type(screen.getByLabelText("Confirm New Password"), "new-pass");
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Failed to change password: Current password is incorrect",
    );
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
  });

  it("closes on Escape", async () => {
    const { onOpenChange, user } = setup(() => jsonResponse({}));
    await user.keyboard("{Escape}");
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});
