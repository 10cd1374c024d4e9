import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type DataExport, routePath, routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { downloadFile } from "@/lib/csv";
import { detailUser, mockAdminApi, signInAdmin } from "@/test/admin";
import { on } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

// The first render loads the lazy admin bundle; give slow, shared machines time.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  toast.remove();
});

const activeSubscription = {
  status: "active" as const,
  plan: {
    name: "Gold",
    price: 19.99,
    currency: "usd" as const,
    duration: 1,
    interval: "month" as const,
    intervalCount: 1,
  },
  currentPeriodStart: "2025-02-01T00:00:00.000Z",
  currentPeriodEnd: "2025-03-01T00:00:00.000Z",
  autoRenew: true,
  cancelAtPeriodEnd: false,
  stripeSubscriptionId: "sub_123",
};

function showUser(user = detailUser()) {
  signInAdmin();
  return mockAdminApi([
    on(routes.adminUsers.detail, () => jsonResponse({ success: true, data: user })),
  ]);
}

describe("user details", () => {
  it("shows the Back link, profile, account information and no active subscription", async () => {
    const api = showUser();
    renderApp("/admin/users/u1");
    expect(await screen.findByRole("heading", { name: "User Details" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Users" })).toHaveAttribute(
      "href",
      "/admin/users",
    );
    const profile = screen.getByTestId("profile-card");
    expect(profile).toHaveTextContent("Jade Fan");
    expect(profile).toHaveTextContent("jade@example.com");
    expect(profile).toHaveTextContent("User");
    const account = screen.getByTestId("account-information");
    expect(account).toHaveTextContent("Jan 5, 2025");
    expect(account).toHaveTextContent("$19.98");
    expect(account).toHaveTextContent("120");
    expect(screen.getByTestId("subscription-card")).toHaveTextContent("No Active Subscription");
    expect(screen.getAllByText("No transactions found")).toHaveLength(2);
    // The transaction lists were asked for; their failure (404 here) stays silent.
    const paths = api.calls.map((c) => c.url.pathname);
    const ofUser = { userId: "u1" };
    expect(paths).toContain(routePath(routes.adminBilling.userTransactions.path, ofUser));
    expect(paths).toContain(
      routePath(routes.adminBilling.userSubscriptionTransactions.path, ofUser),
    );
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows an active subscription with its duration and renewal", async () => {
    showUser(detailUser({ subscription: activeSubscription, role: "admin" }));
    renderApp("/admin/users/u1");
    const card = await screen.findByTestId("subscription-card");
    expect(card).toHaveTextContent("Gold");
    expect(card).toHaveTextContent("$19.99");
    expect(within(card).getByTestId("plan-duration")).toHaveTextContent("monthly");
    expect(within(card).getByTestId("renewal")).toHaveTextContent("Auto-renews");
    expect(card).toHaveTextContent("Feb 1, 2025 – Mar 1, 2025");
    expect(screen.getByTestId("profile-card")).toHaveTextContent("Admin");
  });

  it.each([
    [3, true, false, "quarterly", "Auto-renews"],
    [12, true, true, "yearly", "Cancels at period end"],
    [6, false, false, "yearly", "Cancels at period end"],
  ])(
    "duration %i, autoRenew %s, cancelAtPeriodEnd %s: %s, %s",
    async (duration, autoRenew, cancel, label, renewal) => {
      showUser(
        detailUser({
          subscription: {
            ...activeSubscription,
            plan: {
              ...activeSubscription.plan,
              price: 50,
              duration,
              intervalCount: duration,
            },
            autoRenew,
            cancelAtPeriodEnd: cancel,
          },
        }),
      );
      renderApp("/admin/users/u1");
      expect(await screen.findByTestId("plan-duration")).toHaveTextContent(label);
      expect(screen.getByTestId("renewal")).toHaveTextContent(renewal);
    },
  );

  it("shows a euro plan's price in euros (issue 24)", async () => {
    showUser(
      detailUser({
        subscription: {
          ...activeSubscription,
          plan: { ...activeSubscription.plan, price: 14.99, currency: "eur" },
        },
      }),
    );
    renderApp("/admin/users/u1");
    const card = await screen.findByTestId("subscription-card");
    expect(card).toHaveTextContent("€14.99 monthly");
    expect(card).not.toHaveTextContent("$");
  });

  it("shows a subscription set to cancel as in force until its end", async () => {
    showUser(
      detailUser({
        subscription: {
          ...activeSubscription,
          status: "canceled",
          autoRenew: false,
          cancelAtPeriodEnd: true,
        },
      }),
    );
    renderApp("/admin/users/u1");
    const card = await screen.findByTestId("subscription-card");
    expect(card).toHaveTextContent("Gold");
    expect(card).toHaveTextContent("Canceling");
    expect(within(card).getByTestId("renewal")).toHaveTextContent("Cancels at period end");
  });

  it("shows a free trial as Trialing until its end, renewing (issue 27)", async () => {
    showUser(detailUser({ subscription: { ...activeSubscription, status: "trialing" } }));
    renderApp("/admin/users/u1");
    const card = await screen.findByTestId("subscription-card");
    expect(card).toHaveTextContent("Gold");
    expect(card).toHaveTextContent("Trialing until Mar 1, 2025");
    expect(within(card).getByTestId("renewal")).toHaveTextContent("Auto-renews");
  });

  it("shows No Active Subscription for an ended one", async () => {
    showUser(detailUser({ subscription: { ...activeSubscription, status: "inactive" } }));
    renderApp("/admin/users/u1");
    expect(await screen.findByTestId("subscription-card")).toHaveTextContent(
      "No Active Subscription",
    );
  });

  it.each([
    ["week", 1, "weekly"],
    ["day", 1, "daily"],
    ["week", 2, "every 2 weeks"],
  ] as const)("a %s plan of %i shows as %s", async (interval, intervalCount, label) => {
    showUser(
      detailUser({
        subscription: {
          ...activeSubscription,
          plan: { ...activeSubscription.plan, price: 5, duration: 0, interval, intervalCount },
        },
      }),
    );
    renderApp("/admin/users/u1");
    expect(await screen.findByTestId("plan-duration")).toHaveTextContent(label);
  });

  it("has the three tabs with their empty states and headers", async () => {
    showUser();
    const { router } = renderApp("/admin/users/u1");
    const user = userEvent.setup();
    const tabs = await screen.findAllByRole("tab");
    expect(tabs.map((t) => t.textContent)).toEqual([
      "Overview",
      "Credit Transactions",
      "Subscription Transactions",
    ]);
    await user.click(screen.getByRole("tab", { name: "Credit Transactions" }));
    const credit = screen.getByRole("tabpanel");
    expect(within(credit).getByText("No credit transactions found")).toBeInTheDocument();
    expect(
      within(credit)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Date", "Credits", "Amount", "Status", "Transaction ID"]);
    expect(router.state.location.search).toBe("?tab=credits");
    await user.click(screen.getByRole("tab", { name: "Subscription Transactions" }));
    const subscription = screen.getByRole("tabpanel");
    expect(
      within(subscription).getByText("No subscription transactions found"),
    ).toBeInTheDocument();
    expect(
      within(subscription)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Date", "Plan", "Amount", "Status", "Transaction ID"]);
    // View all on the overview goes to the tab.
    await user.click(screen.getByRole("tab", { name: "Overview" }));
    await user.click(screen.getAllByRole("button", { name: "View all" })[1] as HTMLElement);
    expect(screen.getByRole("tab", { name: "Subscription Transactions" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
  });

  it("says User not found for an unknown id", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminUsers.detail, () =>
        jsonResponse({ success: false, message: "User not found" }, 404),
      ),
    ]);
    renderApp("/admin/users/nope");
    expect(await screen.findByRole("heading", { name: "User not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Users" })).toBeInTheDocument();
  });

  it("says Failed to load user details on other failures", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminUsers.detail, () => jsonResponse({ success: false, message: "x" }, 500)),
    ]);
    renderApp("/admin/users/u1");
    expect(
      await screen.findByRole("heading", { name: "Error loading user details" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Failed to load user details");
  });

  it("deactivates behind the confirmation and reloads the user", async () => {
    signInAdmin();
    let active = true;
    const api = mockAdminApi([
      on(routes.adminUsers.detail, () =>
        jsonResponse({ success: true, data: detailUser({ isActive: active }) }),
      ),
      on(routes.adminUsers.status, () => {
        active = false;
        return jsonResponse({
          success: true,
          data: detailUser({ isActive: false }),
          message: "User deactivated successfully",
        });
      }),
    ]);
    renderApp("/admin/users/u1");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Deactivate User" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Deactivate user?" });
    await user.click(within(dialog).getByRole("button", { name: "Deactivate" }));
    expect(await screen.findByRole("button", { name: "Activate User" })).toBeInTheDocument();
    expect(api.callsTo(routes.adminUsers.status, { userId: "u1" })[0]?.body).toEqual({
      action: "deactivate",
    });
    await waitFor(() =>
      expect(api.callsTo(routes.adminUsers.detail, { userId: "u1" }).length).toBeGreaterThan(1),
    );
    expect(screen.getByTestId("profile-card")).toHaveTextContent("Inactive");
  });

  it("says Failed to deactivate user when it fails", async () => {
    showUser();
    mockAdminApi([
      on(routes.adminUsers.detail, () => jsonResponse({ success: true, data: detailUser() })),
      on(routes.adminUsers.status, () => jsonResponse({ success: false, message: "x" }, 500)),
    ]);
    renderApp("/admin/users/u1");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Deactivate User" }));
    const dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Deactivate" }));
    expect(await screen.findByText("Failed to deactivate user")).toBeInTheDocument();
  });

  it("pages the user's transactions on the server: recent three, every page reachable, search and sort", async () => {
    signInAdmin();
    // 25 credit purchases, c1 the newest; every 5th pending; the server pages and searches them.
    const credit = (n: number) => ({
      _id: `c${n}`,
      transactionDate: new Date(Date.UTC(2025, 1, 28, 12) - n * 3_600_000).toISOString(),
      userId: null,
      credits: n * 100,
      amount: n * 10,
      currency: n === 2 ? "eur" : "usd",
      status: n % 5 === 0 ? "pending" : "success",
      refundedAmount: 0,
      packageId: null,
      stripePaymentId: `pi_${n}`,
      metadata: { packageName: `Pack ${n}`, invoiceNumber: null },
      failureReason: null,
    });
    const all = Array.from({ length: 25 }, (_, i) => credit(i + 1));
    const payment = {
      _id: "s1",
      transactionDate: "2025-02-02T10:00:00.000Z",
      userId: null,
      planId: { _id: "pl1", name: "Gold" },
      planName: "Gold",
      amount: 19.99,
      currency: "usd",
      status: "failed",
      refundedAmount: 0,
      stripePaymentId: null,
      invoiceId: "in_9",
      credits: 0,
      failureReason: "Your card was declined.",
    };
    const answer = (rows: unknown[], url: URL) => {
      const page = Number(url.searchParams.get("page") ?? 1);
      const limit = Number(url.searchParams.get("limit") ?? 100);
      return jsonResponse({
        success: true,
        data: rows.slice((page - 1) * limit, page * limit),
        pagination: { total: rows.length, page, limit, pages: Math.ceil(rows.length / limit) },
      });
    };
    const api = mockAdminApi([
      on(routes.adminUsers.detail, () => jsonResponse({ success: true, data: detailUser() })),
      on(routes.adminBilling.userTransactions, ({ url }) => {
        const search = url.searchParams.get("search");
        const rows = search ? all.filter((row) => row.status.includes(search)) : all;
        return answer(url.searchParams.get("sortOrder") === "1" ? [...rows].reverse() : rows, url);
      }),
      on(routes.adminBilling.userSubscriptionTransactions, ({ url }) => answer([payment], url)),
    ]);
    renderApp("/admin/users/u1");
    const recentCredits = (
      await screen.findByRole("heading", { name: "Recent Credit Transactions" })
    ).parentElement?.parentElement as HTMLElement;
    await waitFor(() => expect(within(recentCredits).getAllByRole("listitem")).toHaveLength(3));
    expect(within(recentCredits).getByText("100 credits")).toBeInTheDocument();
    expect(within(recentCredits).getByText("€20.00")).toBeInTheDocument();
    const recentSubs = screen.getByRole("heading", { name: "Recent Subscription Transactions" })
      .parentElement?.parentElement as HTMLElement;
    expect(within(recentSubs).getByText("Gold")).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole("tab", { name: "Credit Transactions" }));
    const table = await screen.findByRole("table", { name: "Credit Transactions" });
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(11));
    expect(within(table).getByText("pi_1")).toBeInTheDocument();
    // The last page, beyond what one answer holds, is one click away at a time.
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(within(table).getByText("pi_25")).toBeInTheDocument());
    expect(within(table).getAllByRole("row")).toHaveLength(6);
    const userTransactions = () =>
      api.callsTo(routes.adminBilling.userTransactions, { userId: "u1" });
    const asked = userTransactions();
    expect(asked.at(-1)?.url.searchParams.get("page")).toBe("3");
    expect(asked.at(-1)?.url.searchParams.get("limit")).toBe("10");

    await user.click(within(table).getByRole("button", { name: /Amount/ }));
    await waitFor(() => {
      const last = userTransactions().at(-1)?.url.searchParams;
      expect(last?.get("sortBy")).toBe("amount");
      expect(last?.get("page")).toBe("1");
    });

    await user.type(screen.getByRole("searchbox"), "pending");
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(6));
    expect(userTransactions().at(-1)?.url.searchParams.get("search")).toBe("pending");

    await user.click(screen.getByRole("tab", { name: "Subscription Transactions" }));
    const subs = await screen.findByRole("table", { name: "Subscription Transactions" });
    expect(within(subs).getByText("in_9")).toBeInTheDocument();
    expect(within(subs).getByText("$19.99")).toBeInTheDocument();
    expect(within(subs).getByText("Failed")).toBeInTheDocument();
    expect(within(subs).getByText("Your card was declined.")).toBeInTheDocument();
  });
});

describe("user details: the fan's data export", () => {
  it("asks for the fan's export, then downloads the ready ZIP from the admin's paths", async () => {
    const save = vi.spyOn(downloadFile, "save").mockImplementation(() => {});
    let latest: DataExport | null = null;
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminUsers.detail, () => jsonResponse({ success: true, data: detailUser() })),
      on(routes.privacy.adminLatestExport, () => jsonResponse({ success: true, data: latest })),
      on(routes.privacy.adminRequestExport, () => {
        latest = { ...readyExport, status: "ready" };
        return jsonResponse(
          { success: true, message: "The data export is being prepared.", data: latest },
          202,
        );
      }),
      on(
        routes.privacy.adminDownloadExport,
        () => new Response("zip", { headers: { "content-type": "application/zip" } }),
      ),
    ]);
    renderApp("/admin/users/u1");
    const actions = await screen.findByTestId("privacy-actions", {}, { timeout: 15_000 });
    const user = userEvent.setup();
    await user.click(within(actions).getByRole("button", { name: "Export data" }));
    await user.click(await within(actions).findByRole("button", { name: /Download data export/ }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0]?.[0]).toBe("twinline-data-u1.zip");
    const paths = api.calls.map((c) => `${c.method} ${c.url.pathname}`);
    const { adminRequestExport: request, adminDownloadExport: download } = routes.privacy;
    expect(paths).toContain(`${request.method} ${routePath(request.path, { userId: "u1" })}`);
    expect(paths).toContain(
      `${download.method} ${routePath(download.path, { userId: "u1", id: "e1" })}`,
    );
    save.mockRestore();
  });
});

const readyExport: DataExport = {
  _id: "e1",
  status: "ready",
  requestedByAdmin: true,
  createdAt: "2026-11-26T10:00:00.000Z",
  finishedAt: "2026-11-26T10:01:00.000Z",
  expiresAt: "2026-12-03T10:01:00.000Z",
  sizeBytes: 3,
};
