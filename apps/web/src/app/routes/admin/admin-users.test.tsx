import { configure, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { detailUser, listUser, mockAdminApi, signInAdmin, usersPage } from "@/test/admin";
import { on } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

// The first render loads the lazy admin bundle; give slow, shared machines time.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  toast.remove();
});

const jane = listUser();
const bob = listUser({
  _id: "u2",
  name: "Bright Buyer",
  email: "buyer@example.com",
  lastLogin: null,
  lastActive: null,
  isActive: false,
  subscription: { status: "active", planId: "p1" },
});
const cara = listUser({
  _id: "u3",
  name: "Cara Gone",
  email: "cara@example.com",
  subscription: { status: "canceled", planId: "p1" },
});

function usersApi(total = 3) {
  return mockAdminApi([
    on(routes.adminUsers.list, ({ url }) =>
      jsonResponse(usersPage([jane, bob, cara], Number(url.searchParams.get("page") ?? 1), total)),
    ),
  ]);
}

function lastQuery(api: ReturnType<typeof mockAdminApi>) {
  const calls = api.callsTo(routes.adminUsers.list);
  return Object.fromEntries(calls.at(-1)?.url.searchParams ?? []);
}

describe("users screen", () => {
  it("asks for page 1, 10 per page, newest first, status all; shows rows and the growth cards", async () => {
    signInAdmin();
    const api = usersApi();
    renderApp("/admin/users");
    const rows = await screen.findAllByTestId("user-row");
    expect(rows).toHaveLength(3);
    expect(lastQuery(api)).toEqual({
      page: "1",
      limit: "10",
      sortBy: "createdAt",
      sortOrder: "-1",
      status: "all",
    });
    expect(api.callsTo(routes.adminUsers.list)[0]?.headers.get("authorization")).toBe(
      "Bearer admin-token",
    );

    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual([
      "Name",
      "Email",
      "Join Date",
      "Last Active",
      "Credits",
      "Subscription Status",
      "Account Status",
      "Actions",
    ]);
    const first = within(rows[0] as HTMLElement);
    expect(first.getByText("Jade Fan")).toBeInTheDocument();
    expect(first.getByText("Jan 5, 2025")).toBeInTheDocument();
    expect(first.getByText("None")).toBeInTheDocument();
    expect(first.getByText("Active")).toBeInTheDocument();
    const second = within(rows[1] as HTMLElement);
    expect(second.getByText("Never")).toBeInTheDocument();
    expect(second.getByText("Active")).toBeInTheDocument(); // subscription
    expect(second.getByText("Inactive")).toBeInTheDocument(); // account
    expect(within(rows[2] as HTMLElement).getByText("Canceled")).toBeInTheDocument();
    expect(first.getByRole("link", { name: "View details of Jade Fan" })).toHaveAttribute(
      "href",
      "/admin/users/u1",
    );

    const cards = await screen.findAllByTestId("user-growth-card");
    expect(cards.map((c) => c.textContent)).toEqual([
      "Today's Users3",
      "Yesterday's Users5",
      "This Month's Users17",
      "Last Month's Users25",
    ]);
  });

  it("sorts by a column header, flips on the second click, and marks aria-sort", async () => {
    signInAdmin();
    const api = usersApi();
    renderApp("/admin/users");
    await screen.findAllByTestId("user-row");
    const user = userEvent.setup();
    const joinHeader = screen.getByRole("columnheader", { name: /Join Date/ });
    expect(joinHeader).toHaveAttribute("aria-sort", "descending");

    await user.click(screen.getByRole("button", { name: /^Name/ }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ sortBy: "name", sortOrder: "1" }));
    expect(screen.getByRole("columnheader", { name: /^Name/ })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    expect(joinHeader).toHaveAttribute("aria-sort", "none");

    await user.click(screen.getByRole("button", { name: /^Name/ }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ sortBy: "name", sortOrder: "-1" }));

    await user.click(screen.getByRole("button", { name: /Credits/ }));
    await waitFor(() =>
      expect(lastQuery(api)).toMatchObject({ sortBy: "credits", sortOrder: "-1", page: "1" }),
    );
  });

  it("searches after typing stops, from page 1", async () => {
    signInAdmin();
    const api = usersApi(25);
    renderApp("/admin/users?page=2");
    await screen.findAllByTestId("user-row");
    expect(lastQuery(api).page).toBe("2");
    fireEvent.change(screen.getByLabelText("Search users by name or email"), {
      target: { value: " jane " },
    });
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ search: "jane", page: "1" }));
    const searches = api
      .callsTo(routes.adminUsers.list)
      .filter((c) => c.url.searchParams.has("search"));
    expect(searches).toHaveLength(1);
  });

  it("pages with Previous and Next", async () => {
    signInAdmin();
    const api = usersApi(25);
    renderApp("/admin/users");
    await screen.findAllByTestId("user-row");
    expect(screen.getByText("Page 1 of 3")).toBeInTheDocument();
    expect(screen.getByText("Showing 1 to 10 of 25 users")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Previous" })).toBeDisabled();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(lastQuery(api).page).toBe("2"));
    expect(await screen.findByText("Page 2 of 3")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Next" }));
    expect(await screen.findByText("Page 3 of 3")).toBeInTheDocument();
    expect(screen.getByText("Showing 21 to 25 of 25 users")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Previous" }));
    await waitFor(() => expect(lastQuery(api).page).toBe("2"));
  });

  it("shows the empty and error states", async () => {
    signInAdmin();
    let fail = false;
    mockAdminApi([
      on(routes.adminUsers.list, () =>
        fail
          ? jsonResponse({ success: false, message: "Boom" }, 500)
          : jsonResponse(usersPage([], 1, 0)),
      ),
    ]);
    const first = renderApp("/admin/users");
    expect(await screen.findByText("No users found")).toBeInTheDocument();
    first.unmount();
    fail = true;
    renderApp("/admin/users");
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load users");
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });

  it("deactivates only after confirming, then reloads the list", async () => {
    signInAdmin();
    let active = true;
    const api = mockAdminApi([
      on(routes.adminUsers.list, () => jsonResponse(usersPage([listUser({ isActive: active })]))),
      on(routes.adminUsers.status, () => {
        active = false;
        return jsonResponse({
          success: true,
          data: detailUser({ isActive: false }),
          message: "User deactivated successfully",
        });
      }),
    ]);
    renderApp("/admin/users");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Deactivate Jade Fan" }));
    let dialog = await screen.findByRole("alertdialog", { name: "Deactivate user?" });
    expect(dialog).toHaveTextContent("jade@example.com");
    // Cancel (and Escape) change nothing.
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    await user.click(screen.getByRole("button", { name: "Deactivate Jade Fan" }));
    await screen.findByRole("alertdialog");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(api.callsTo(routes.adminUsers.status, { userId: "u1" })).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Deactivate Jade Fan" }));
    dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Deactivate" }));
    await waitFor(() =>
      expect(api.callsTo(routes.adminUsers.status, { userId: "u1" })).toHaveLength(1),
    );
    const [put] = api.callsTo(routes.adminUsers.status, { userId: "u1" });
    expect(put?.body).toEqual({ action: "deactivate" });
    expect(put?.headers.get("csrf-token")).toBe("csrf-1");
    expect(await screen.findByText("User deactivated successfully")).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Activate Jade Fan" })).toBeInTheDocument();
  });

  it("says 'Failed to activate user' when activation fails", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminUsers.list, () => jsonResponse(usersPage([listUser({ isActive: false })]))),
      on(routes.adminUsers.status, () => jsonResponse({ success: false, message: "nope" }, 500)),
    ]);
    renderApp("/admin/users");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Activate Jade Fan" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Activate user?" });
    await user.click(within(dialog).getByRole("button", { name: "Activate" }));
    expect(await screen.findByText("Failed to activate user")).toBeInTheDocument();
  });

  it("shows the server's reason when deactivating is refused (the admin's own account)", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminUsers.list, () => jsonResponse(usersPage([listUser()]))),
      on(routes.adminUsers.status, () =>
        jsonResponse({ success: false, message: "You cannot deactivate your own account" }, 400),
      ),
    ]);
    renderApp("/admin/users");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Deactivate Jade Fan" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Deactivate user?" });
    await user.click(within(dialog).getByRole("button", { name: "Deactivate" }));
    expect(await screen.findByText("You cannot deactivate your own account")).toBeInTheDocument();
  });
});
