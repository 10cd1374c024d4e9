import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { jsonResponse, renderApp } from "@/test/render";
import { detailUser, mockAdminApi, signInAdmin } from "./test-api";

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
    const api = mockAdminApi({
      "GET /api/admin/users/:id": () => jsonResponse({ success: true, data: current }),
      "GET /api/admin/users/:id/transactions": () => jsonResponse(emptyPage),
      "GET /api/admin/users/:id/subscription-transactions": () => jsonResponse(emptyPage),
      "PUT /api/admin/users/:id/date-of-birth": ({ body }) => {
        current = detailUser({ dateOfBirth: (body as { dateOfBirth: string }).dateOfBirth });
        return jsonResponse({ success: true, message: "Date of birth corrected", data: current });
      },
    });
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
    expect(api.callsTo("PUT /api/admin/users/u1/date-of-birth")[0]?.body).toEqual({
      dateOfBirth: "1985-02-28",
    });
    await waitFor(() =>
      expect(screen.getByTestId("date-of-birth")).toHaveTextContent("1985-02-28"),
    );
  });
});
