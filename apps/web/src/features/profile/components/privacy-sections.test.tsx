import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { DataExport } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { makeUser, mockAuthApi, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";

afterEach(() => {
  toast.remove();
});

const queued: DataExport = {
  _id: "e1",
  status: "queued",
  requestedByAdmin: false,
  createdAt: "2026-11-26T10:00:00.000Z",
  finishedAt: null,
  expiresAt: null,
  sizeBytes: null,
};

describe("/dashboard/profile: my data and my account", () => {
  it("asks for the export and says it is being prepared; shows the server's refusal", async () => {
    storeSession();
    let latest: DataExport | null = null;
    let refuse = false;
    const { callsTo } = mockAuthApi({
      "GET /api/auth/me": { success: true, data: makeUser() },
      "GET /api/memory": { success: true, data: { enabled: true, summary: null, facts: [] } },
      "GET /api/users/data-export": () => Response.json({ success: true, data: latest }),
      "POST /api/users/data-export": () => {
        if (refuse) {
          return Response.json(
            {
              success: false,
              message: "You can ask for your data 3 times a day. Please try again later.",
            },
            { status: 429 },
          );
        }
        latest = queued;
        return Response.json(
          { success: true, message: "Your data export is being prepared.", data: queued },
          { status: 202 },
        );
      },
    });
    renderApp("/dashboard/profile");
    const user = userEvent.setup();
    const section = await screen.findByTestId("data-export-section");
    expect(
      within(section).getByText("You have not asked for a copy of your data yet."),
    ).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Download my data" }));
    expect(await within(section).findByText(/We are preparing your data/)).toBeInTheDocument();
    expect(within(section).getByRole("button", { name: "Download my data" })).toBeDisabled();
    expect(callsTo("POST /api/users/data-export")).toHaveLength(1);

    latest = { ...queued, status: "failed" };
    refuse = true;
    await waitFor(
      () => expect(within(section).getByText(/The last export failed/)).toBeInTheDocument(),
      { timeout: 6000 },
    );
    await user.click(within(section).getByRole("button", { name: "Download my data" }));
    expect(await screen.findByText(/3 times a day/)).toBeInTheDocument();
  });

  it("deletes the account only with the password and DELETE typed, then signs out", async () => {
    storeSession();
    const { callsTo } = mockAuthApi({
      "GET /api/auth/me": { success: true, data: makeUser({ hasPassword: true }) },
      "GET /api/memory": { success: true, data: { enabled: true, summary: null, facts: [] } },
      "GET /api/users/data-export": { success: true, data: null },
      "POST /api/users/delete-account": (call) =>
        (call.body as { password: string }).password === "right password"
          ? Response.json({ success: true, message: "Your account has been deleted." })
          : Response.json(
              { success: false, message: "The password is incorrect" },
              { status: 400 },
            ),
    });
    renderApp("/dashboard/profile");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Delete account" }));
    const dialog = await screen.findByTestId("delete-account-dialog");
    const submit = within(dialog).getByRole("button", { name: "Delete my account" });
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByLabelText("Your password", { selector: "input" }), "wrong");
    await user.type(within(dialog).getByLabelText("Type DELETE to confirm"), "DELETE");
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(await within(dialog).findByText("The password is incorrect")).toBeInTheDocument();
    const password = within(dialog).getByLabelText("Your password", { selector: "input" });
    await user.clear(password);
    await user.type(password, "right password");
    await user.click(submit);
    expect(await screen.findByText("Your account has been deleted.")).toBeInTheDocument();
    expect(callsTo("POST /api/users/delete-account").at(-1)?.body).toEqual({
      confirmation: "DELETE",
      password: "right password",
    });
    await waitFor(() => expect(localStorage.getItem("userToken")).toBeNull());
  });
});
