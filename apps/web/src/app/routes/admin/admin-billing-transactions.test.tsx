import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type {
  AdminCreditTransaction,
  AdminSubscriptionTransaction,
  SubscriptionHistoryEvent,
} from "@twinline/contracts";
import { routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { downloadCsv, downloadFile } from "@/lib/csv";
import { mockAdminApi, signInAdmin } from "@/test/admin";
import { on } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

configure({ asyncUtilTimeout: 5000 });
// The first render loads a lazy bundle; a busy shared machine needs more than the default 5 s.
vi.setConfig({ testTimeout: 20_000 });

let save: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  save = vi.spyOn(downloadCsv, "save").mockImplementation(() => {});
});
afterEach(() => {
  toast.remove();
  vi.restoreAllMocks();
});

const user1 = { _id: "u1", name: "Test User", email: "user1@example.com", profileImage: null };

function credit(patch: Partial<AdminCreditTransaction> = {}): AdminCreditTransaction {
  return {
    _id: "c1",
    transactionDate: "2025-02-03T10:00:00.000Z",
    userId: user1,
    credits: 500,
    amount: 45,
    currency: "usd",
    status: "success",
    refundedAmount: 0,
    packageId: "p1",
    stripePaymentId: "pi_123",
    metadata: { packageName: "Big Pack", invoiceNumber: null },
    ...patch,
  };
}
function payment(patch: Partial<AdminSubscriptionTransaction> = {}): AdminSubscriptionTransaction {
  return {
    _id: "s1",
    transactionDate: "2025-02-03T10:00:00.000Z",
    userId: user1,
    planId: { _id: "pl1", name: "Gold" },
    planName: "Gold",
    amount: 19.99,
    currency: "eur",
    status: "pending",
    refundedAmount: 0,
    stripePaymentId: null,
    invoiceId: "in_1",
    credits: 0,
    ...patch,
  };
}
function event(patch: Partial<SubscriptionHistoryEvent> = {}): SubscriptionHistoryEvent {
  return {
    _id: "e1",
    timestamp: "2025-02-03T10:00:00.000Z",
    userId: user1,
    planId: { _id: "pl1", name: "Gold" },
    eventType: "created",
    status: "active",
    startDate: "2025-02-03T10:00:00.000Z",
    endDate: "2025-03-03T10:00:00.000Z",
    amount: 19.99,
    currency: "usd",
    autoRenew: true,
    stripeSubscriptionId: null,
    ...patch,
  };
}
const page = (data: unknown[], total = data.length) => ({
  success: true,
  data,
  pagination: { total, page: 1, limit: 10, pages: Math.max(1, Math.ceil(total / 10)) },
});
const revenue = {
  success: true,
  data: {
    totalRevenue: { value: 1000, byCurrency: [{ currency: "usd", value: 1000 }] },
    todayRevenue: {
      value: 12.5,
      byCurrency: [
        { currency: "usd", value: 12.5 },
        { currency: "eur", value: 30 },
      ],
    },
    yesterdayRevenue: { value: 0.1, byCurrency: [{ currency: "usd", value: 0.1 }] },
    thisMonthRevenue: { value: 1234.5, byCurrency: [{ currency: "usd", value: 1234.5 }] },
    lastMonthRevenue: { value: 0, byCurrency: [{ currency: "usd", value: 0 }] },
  },
};

describe("/admin/credit-transactions", () => {
  it("shows the revenue cards, the rows with their badges, and the count", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.creditTransactions, () =>
        jsonResponse(
          page(
            [
              credit(),
              credit({
                _id: "c2",
                status: "failed",
                stripePaymentId: null,
                failureReason: "Paid 0.01 USD for a sale of 45.00 USD: nothing granted",
              }),
            ],
            12,
          ),
        ),
      ),
    ]);
    renderApp("/admin/credit-transactions");
    const table = await screen.findByRole("table", { name: "Credit Transactions" });
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(3));
    expect(screen.getByTestId("showing")).toHaveTextContent("Showing 2 of 12 transactions");
    const first = within(table).getAllByRole("row")[1] as HTMLElement;
    expect(first).toHaveTextContent("Big Pack");
    expect(first).toHaveTextContent("$45.00");
    expect(first).toHaveTextContent("pi_123");
    expect(within(table).getByText("Success")).toBeInTheDocument();
    expect(within(table).getByText("Failed")).toBeInTheDocument();
    expect(within(table).getAllByText("user1@example.com")).toHaveLength(2);
    expect(within(table).getByText("N/A")).toBeInTheDocument();
    const cards = screen.getAllByTestId("revenue-card");
    // USD the headline, other currencies beside it, never added; always two decimals.
    expect(cards[0]).toHaveTextContent("Today's Revenue$12.50€30.00");
    expect(within(cards[0] as HTMLElement).getByTestId("other-currencies")).toHaveTextContent(
      "€30.00",
    );
    expect(cards[1]).toHaveTextContent("Yesterday's Revenue$0.10");
    expect(cards[2]).toHaveTextContent("This Month's Revenue$1,234.50");
    expect(cards[3]).toHaveTextContent("Last Month's Revenue$0.00");
    expect(within(cards[3] as HTMLElement).queryByTestId("other-currencies")).toBeNull();
    expect(within(table).getByTestId("failure-reason")).toHaveTextContent(
      "Paid 0.01 USD for a sale of 45.00 USD: nothing granted",
    );
    expect(api.callsTo(routes.adminBilling.revenue)[0]?.url.searchParams.get("kind")).toBe(
      "credits",
    );
    const query = api.callsTo(routes.adminBilling.creditTransactions)[0]?.url.searchParams;
    expect(query?.get("limit")).toBe("10");
    expect(query?.get("sortBy")).toBe("transactionDate");
    expect(query?.get("sortOrder")).toBe("-1");
    expect(query?.has("status")).toBe(false);
  });

  it("a payment refunded in part keeps Success and says how much went back", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.creditTransactions, () =>
        jsonResponse(page([credit({ amount: 31.99, refundedAmount: 10 })])),
      ),
    ]);
    renderApp("/admin/credit-transactions");
    const table = await screen.findByRole("table", { name: "Credit Transactions" });
    expect(await within(table).findByText("Refunded $10.00 of $31.99")).toBeInTheDocument();
    expect(within(table).getByText("Success")).toBeInTheDocument();
  });

  it("re-queries at once on a status change, on Search with the text and dates, and on sort", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.creditTransactions, () => jsonResponse(page([credit()]))),
    ]);
    renderApp("/admin/credit-transactions");
    await screen.findByRole("table", { name: "Credit Transactions" });
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Status"), "failed");
    await waitFor(() =>
      expect(
        api.callsTo(routes.adminBilling.creditTransactions).at(-1)?.url.searchParams.get("status"),
      ).toBe("failed"),
    );
    await user.type(screen.getByLabelText("User ID/Email"), "user1@");
    await user.type(screen.getByLabelText("Start Date"), "2025-02-01");
    await user.click(screen.getByRole("button", { name: "Search" }));
    await waitFor(() => {
      const q = api.callsTo(routes.adminBilling.creditTransactions).at(-1)?.url.searchParams;
      expect(q?.get("userId")).toBe("user1@");
      expect(q?.get("startDate")).toBe("2025-02-01");
    });
    await user.click(screen.getByRole("button", { name: /^Credits/ }));
    await waitFor(() => {
      const q = api.callsTo(routes.adminBilling.creditTransactions).at(-1)?.url.searchParams;
      expect(q?.get("sortBy")).toBe("credits");
      expect(q?.get("sortOrder")).toBe("-1");
    });
  });

  it("exports the current page as CSV with the spec's columns, N/A and the date in the name", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.creditTransactions, () =>
        jsonResponse(page([credit(), credit({ _id: "c2", stripePaymentId: null, userId: null })])),
      ),
    ]);
    renderApp("/admin/credit-transactions");
    await screen.findByText("Showing 2 of 2 transactions");
    await userEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    expect(await screen.findByText("Export Complete")).toBeInTheDocument();
    const [name, csv] = save.mock.calls[0] as [string, string];
    expect(name).toMatch(/^credit-transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(
      '"Date","User Email","User Name","Package","Credits","Amount","Currency","Status","Transaction ID"',
    );
    expect(lines[1]).toBe(
      '"2025-02-03T10:00:00.000Z","user1@example.com","Test User","Big Pack","500","45.00","USD","success","pi_123"',
    );
    expect(lines[2]).toContain('"N/A","N/A","Big Pack"');
    expect(lines[2]?.endsWith('"N/A"')).toBe(true);
  });

  it("Export all asks the server for every row of the filters and saves its CSV", async () => {
    signInAdmin();
    const saveFile = vi.spyOn(downloadFile, "save").mockImplementation(() => {});
    const api = mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.creditTransactions, () => jsonResponse(page([credit()], 25))),
      on(
        routes.adminBilling.creditTransactionsExport,
        () =>
          new Response('\uFEFF"Date"\r\n"2025-02-03"\r\n', {
            headers: { "content-type": "text/csv; charset=utf-8" },
          }),
      ),
    ]);
    renderApp("/admin/credit-transactions?status=failed&sortBy=amount&sortOrder=1&page=2");
    await screen.findByText("Showing 1 of 25 transactions");
    await userEvent.click(screen.getByRole("button", { name: "Export all" }));
    expect(await screen.findByText("Export Complete")).toBeInTheDocument();
    const asked = api.callsTo(routes.adminBilling.creditTransactionsExport)[0]?.url.searchParams;
    expect(asked?.get("status")).toBe("failed");
    expect(asked?.get("sortBy")).toBe("amount");
    expect(asked?.get("sortOrder")).toBe("1");
    // Every page: page and limit are not sent.
    expect(asked?.has("page")).toBe(false);
    expect(asked?.has("limit")).toBe(false);
    const [name, blob] = saveFile.mock.calls[0] as [string, Blob];
    expect(name).toMatch(/^credit-transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(await blob.text()).toContain('"2025-02-03"');
  });

  it("Export all toasts the screen's failure when the server fails", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.creditTransactions, () => jsonResponse(page([credit()]))),
      on(routes.adminBilling.creditTransactionsExport, () =>
        jsonResponse({ success: false, message: "Boom" }, 500),
      ),
    ]);
    renderApp("/admin/credit-transactions");
    await screen.findByText("Showing 1 of 1 transactions");
    await userEvent.click(screen.getByRole("button", { name: "Export all" }));
    expect(await screen.findByText("Failed to export credit transactions")).toBeInTheDocument();
  });

  it("shows 5 skeleton rows while loading, then the empty text", async () => {
    signInAdmin();
    let answer: () => void = () => {};
    mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(
        routes.adminBilling.creditTransactions,
        () =>
          new Promise<Response>((resolve) => {
            answer = () => resolve(jsonResponse(page([])));
          }),
      ),
    ]);
    renderApp("/admin/credit-transactions");
    expect(await screen.findAllByTestId("skeleton-row")).toHaveLength(5);
    answer();
    expect(await screen.findByText("No credit transactions found")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Export CSV" })).toBeDisabled();
  });

  it("toasts Failed to fetch credit transactions", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.creditTransactions, () =>
        jsonResponse({ success: false, message: "x" }, 500),
      ),
    ]);
    renderApp("/admin/credit-transactions");
    expect(await screen.findByText("Failed to fetch credit transactions")).toBeInTheDocument();
  });

  it("Refresh re-asks and toasts Refreshed", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.creditTransactions, () => jsonResponse(page([credit()]))),
    ]);
    renderApp("/admin/credit-transactions");
    await screen.findByText("Showing 1 of 1 transactions");
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByText("Refreshed")).toBeInTheDocument();
    expect(api.callsTo(routes.adminBilling.creditTransactions)).toHaveLength(2);
  });
});

describe("/admin/subscription-transactions", () => {
  it("shows plan, amount in its currency and the pending badge; exports its CSV", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.subscriptionTransactions, () => jsonResponse(page([payment()]))),
    ]);
    renderApp("/admin/subscription-transactions");
    const table = await screen.findByRole("table", { name: "Subscription Transactions" });
    expect(await within(table).findByText("Gold")).toBeInTheDocument();
    expect(within(table).getByText("€19.99")).toBeInTheDocument();
    expect(within(table).getByText("Pending")).toBeInTheDocument();
    expect(within(table).getByText("in_1")).toBeInTheDocument();
    expect(api.callsTo(routes.adminBilling.revenue)[0]?.url.searchParams.get("kind")).toBe(
      "subscriptions",
    );
    await userEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    const [name, csv] = save.mock.calls[0] as [string, string];
    expect(name).toMatch(/^subscription-transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv.split("\r\n")[0]).toBe(
      '"Date","User Email","User Name","Subscription Plan","Amount","Currency","Status","Transaction ID"',
    );
    expect(csv.split("\r\n")[1]).toContain('"Gold","19.99","EUR","pending","in_1"');
  });

  it("with no admin token says Authentication Error and asks nothing", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.subscriptionTransactions, () => jsonResponse(page([]))),
    ]);
    renderApp("/admin/subscription-transactions");
    await screen.findByRole("table", { name: "Subscription Transactions" });
    // The token goes (another tab logged out); the screen is opened again.
    localStorage.removeItem("adminToken");
    sessionStorage.removeItem("adminToken");
    const before = api.callsTo(routes.adminBilling.subscriptionTransactions).length;
    await userEvent.click(screen.getByRole("link", { name: "Subscription History" }));
    await userEvent.click(screen.getByRole("link", { name: "Subscription Transactions" }));
    expect(
      await screen.findByText("Authentication Error: Please log in again to continue."),
    ).toBeInTheDocument();
    expect(api.callsTo(routes.adminBilling.subscriptionTransactions)).toHaveLength(before);
  });

  it("toasts Error with the server's text, and clears the list", async () => {
    signInAdmin();
    let fail = false;
    mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.subscriptionTransactions, () =>
        fail
          ? jsonResponse({ success: false, message: "startDate must be a date" }, 400)
          : jsonResponse(page([payment()])),
      ),
    ]);
    renderApp("/admin/subscription-transactions");
    await screen.findByText("Showing 1 of 1 transactions");
    fail = true;
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByText("startDate must be a date")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    expect(await screen.findByText("No subscription transactions found")).toBeInTheDocument();
  });

  it("says No subscription transactions found", async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.subscriptionTransactions, () => jsonResponse(page([]))),
    ]);
    renderApp("/admin/subscription-transactions");
    expect(await screen.findByText("No subscription transactions found")).toBeInTheDocument();
  });
});

describe("/admin/subscription-history", () => {
  it("shows the events with status colours, period, auto renew and the filters", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.adminBilling.subscriptionHistory, () =>
        jsonResponse(
          page([
            event(),
            event({ _id: "e2", eventType: "payment_failed", status: "past_due", autoRenew: false }),
          ]),
        ),
      ),
    ]);
    renderApp("/admin/subscription-history");
    const table = await screen.findByRole("table", { name: "Subscription History" });
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(3));
    expect(within(table).getByText("Active")).toBeInTheDocument();
    expect(within(table).getByText("Past due")).toBeInTheDocument();
    expect(within(table).getByText("payment failed")).toBeInTheDocument();
    expect(within(table).getAllByText("Feb 3, 2025 – Mar 3, 2025")).toHaveLength(2);
    expect(within(table).getByText("Yes")).toBeInTheDocument();
    expect(within(table).getByText("No")).toBeInTheDocument();
    expect(screen.queryAllByTestId("revenue-card")).toHaveLength(0);
    const q = api.callsTo(routes.adminBilling.subscriptionHistory)[0]?.url.searchParams;
    expect(q?.get("sortBy")).toBe("timestamp");
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Event Type"), "renewed");
    await waitFor(() =>
      expect(
        api
          .callsTo(routes.adminBilling.subscriptionHistory)
          .at(-1)
          ?.url.searchParams.get("eventType"),
      ).toBe("renewed"),
    );
    // The same column flips; a new column starts descending.
    await user.click(screen.getByRole("button", { name: /^Date/ }));
    await waitFor(() =>
      expect(
        api
          .callsTo(routes.adminBilling.subscriptionHistory)
          .at(-1)
          ?.url.searchParams.get("sortOrder"),
      ).toBe("1"),
    );
    await user.click(screen.getByRole("button", { name: /^Amount/ }));
    await waitFor(() => {
      const last = api.callsTo(routes.adminBilling.subscriptionHistory).at(-1)?.url.searchParams;
      expect(last?.get("sortBy")).toBe("amount");
      expect(last?.get("sortOrder")).toBe("-1");
    });
    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    expect(await screen.findByText("Export Successful")).toBeInTheDocument();
    const [, csv] = save.mock.calls[0] as [string, string];
    expect(csv.split("\r\n")[0]).toBe(
      '"Date","User Email","User Name","Subscription Plan","Event Type","Status","Start Date","End Date","Amount","Currency","Auto Renew","Stripe Subscription ID"',
    );
    expect(csv.split("\r\n")[1]?.endsWith('"Yes","N/A"')).toBe(true);
  });

  it("shows the empty text and toasts the failure", async () => {
    signInAdmin();
    let fail = false;
    mockAdminApi([
      on(routes.adminBilling.subscriptionHistory, () =>
        fail ? jsonResponse({ success: false, message: "x" }, 500) : jsonResponse(page([])),
      ),
    ]);
    renderApp("/admin/subscription-history");
    expect(await screen.findByText("No subscription history records found")).toBeInTheDocument();
    fail = true;
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(
      await screen.findByText("Failed to fetch subscription history data"),
    ).toBeInTheDocument();
  });
});

// After the screens above: the first render of the file loads the lazy admin bundle.
describe("a payment's details", () => {
  it("opens a payment's details with the consent the fan gave at its checkout", async () => {
    signInAdmin();
    const text =
      "I want my 500 credits ($45.00) delivered immediately, and I acknowledge that I lose my right of withdrawal for the credits I use.";
    const api = mockAdminApi([
      on(routes.adminBilling.revenue, () => jsonResponse(revenue)),
      on(routes.adminBilling.creditTransactions, () => jsonResponse(page([credit()]))),
      on(routes.adminBilling.payment, () =>
        jsonResponse({
          success: true,
          data: {
            payment: {
              _id: "c1",
              kind: "credits",
              itemName: "Big Pack",
              status: "success",
              amount: 45,
              refundedAmount: 0,
              currency: "usd",
              credits: 500,
              transactionDate: "2025-02-03T10:00:00.000Z",
              withdrawnAt: null,
            },
            consent: {
              _id: "k1",
              kind: "credits",
              version: "credits-delivery-2026-11-26",
              text,
              packageId: "p1",
              planId: null,
              price: 45,
              currency: "usd",
              ipAddress: "203.0.113.7",
              acceptedAt: "2025-02-03T09:59:00.000Z",
            },
            refunds: [],
          },
        }),
      ),
    ]);
    renderApp("/admin/credit-transactions");
    const table = await screen.findByRole("table", { name: "Credit Transactions" });
    await userEvent.click(await within(table).findByRole("button", { name: "Details" }));
    const consent = await screen.findByTestId("payment-consent");
    expect(consent).toHaveTextContent(text);
    expect(consent).toHaveTextContent("credits-delivery-2026-11-26");
    expect(consent).toHaveTextContent("203.0.113.7");
    expect(api.callsTo(routes.adminBilling.payment, { id: "c1" })).toHaveLength(1);
  });
});
