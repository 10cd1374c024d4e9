import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { detailUser, mockAdminApi, signInAdmin } from "@/test/admin";
import { on } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

// The admin corrects a user's date of birth on the user details page (issue 25; decision 0054).

configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  toast.remove();
});

const emptyPage = {
  success: true,
  data: [],
  pagination: { total: 0, page: 1, limit: 100, pages: 1 },
};

describe("the date of birth on the user details page", () => {
  it("shows it and sends the admin's correction", async () => {
    signInAdmin();
    let current = detailUser();
    const api = mockAdminApi([
      on(routes.adminUsers.detail, () => jsonResponse({ success: true, data: current })),
      on(routes.adminBilling.userTransactions, () => jsonResponse(emptyPage)),
      on(routes.adminBilling.userSubscriptionTransactions, () => jsonResponse(emptyPage)),
      on(routes.adminUsers.dateOfBirth, ({ body }) => {
        current = detailUser({ dateOfBirth: (body as { dateOfBirth: string }).dateOfBirth });
        return jsonResponse({ success: true, message: "Date of birth corrected", data: current });
      }),
    ]);
    const user = userEvent.setup();
    renderApp("/admin/users/u1");
    const value = await screen.findByTestId("date-of-birth");
    expect(value).toHaveTextContent("1990-05-17");
    await user.click(within(value).getByRole("button", { name: "Correct" }));
    const dialog = await screen.findByTestId("date-of-birth-dialog");
    const field = within(dialog).getByLabelText("Date of birth");
    await user.clear(field);
    await user.type(field, "1985-02-28");
    await user.click(within(dialog).getByRole("button", { name: "Save date of birth" }));
    await waitFor(() => expect(screen.queryByTestId("date-of-birth-dialog")).toBeNull());
    expect(api.callsTo(routes.adminUsers.dateOfBirth, { userId: "u1" })[0]?.body).toEqual({
      dateOfBirth: "1985-02-28",
    });
    await waitFor(() =>
      expect(screen.getByTestId("date-of-birth")).toHaveTextContent("1985-02-28"),
    );
  });
});
