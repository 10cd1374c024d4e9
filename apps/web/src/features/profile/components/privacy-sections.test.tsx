import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type DataExport, defaultPublicSettings, routes, type User } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { mockApi, on, type RouteMock, reply } from "@/test/api-mock";
import { makeUser, storeSession } from "@/test/auth";
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

/** The profile page's calls through msw: the account, the sign-in configuration, memory. */
function profileApi(user: User, mocks: RouteMock[]) {
  return mockApi(
    [
      on(routes.auth.me, { success: true, data: user }),
      on(routes.auth.config, { googleClientId: null }),
      on(routes.memory.view, {
        success: true as const,
        data: { enabled: true, summary: null, facts: [] },
      }),
      ...mocks,
    ],
    { settings: defaultPublicSettings },
  );
}

describe("/dashboard/profile: my data and my account", () => {
  it("asks for the export and says it is being prepared; shows the server's refusal", async () => {
    storeSession();
    let latest: DataExport | null = null;
    let refuse = false;
    const api = profileApi(makeUser(), [
      on(routes.privacy.latestExport, () => ({ success: true as const, data: latest })),
      on(routes.privacy.requestExport, () => {
        if (refuse) {
          return reply(
            {
              success: false,
              message: "You can ask for your data 3 times a day. Please try again later.",
            },
            429,
          );
        }
        latest = queued;
        return reply(
          { success: true, message: "Your data export is being prepared.", data: queued },
          202,
        );
      }),
    ]);
    renderApp("/dashboard/profile");
    const user = userEvent.setup();
    const section = await screen.findByTestId("data-export-section");
    expect(
      within(section).getByText("You have not asked for a copy of your data yet."),
    ).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Download my data" }));
    expect(await within(section).findByText(/We are preparing your data/)).toBeInTheDocument();
    expect(within(section).getByRole("button", { name: "Download my data" })).toBeDisabled();
    expect(api.callsTo(routes.privacy.requestExport)).toHaveLength(1);

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
    const api = profileApi(makeUser({ hasPassword: true }), [
      on(routes.privacy.latestExport, { success: true as const, data: null }),
      on(routes.privacy.deleteAccount, ({ body }) =>
        (body as { password: string }).password === "right password"
          ? { success: true as const, message: "Your account has been deleted." }
          : reply({ success: false, message: "The password is incorrect" }, 400),
      ),
    ]);
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
    expect(api.callsTo(routes.privacy.deleteAccount).at(-1)?.body).toEqual({
      confirmation: "DELETE",
      password: "right password",
    });
    await waitFor(() => expect(localStorage.getItem("userToken")).toBeNull());
  });
});
