import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { defaultPublicSettings, routes, type UserDashboardMetrics } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { type MockResolver, mockApi, on } from "@/test/api-mock";
import { jsonResponse, makeUser, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";
import { OVERVIEW_TEXT } from "./overview-page";

// The first render loads lazy route bundles; give slow, shared machines time.
configure({ asyncUtilTimeout: 5000 });

/** The account and the overview's figures, through msw. */
function overviewApi(metricsAnswer: MockResolver) {
  return mockApi(
    [
      on(routes.auth.me, { success: true, data: makeUser({ credits: 240 }) }),
      on(routes.dashboards.userMetrics, metricsAnswer as never),
    ],
    { settings: defaultPublicSettings },
  );
}

function metrics(patch: Partial<UserDashboardMetrics> = {}): UserDashboardMetrics {
  return {
    user: {
      credits: 240,
      createdAt: "2025-01-01T00:00:00.000Z",
      subscription: { status: "inactive", planName: null, endDate: null },
    },
    calls: {
      total: 3,
      totalDuration: 83,
      minutesBilled: 3,
      lastCallDate: "2025-02-01T10:00:00.000Z",
    },
    messages: { total: 42, remaining: 4 },
    creditUsage: {
      total: 15,
      recent: [
        {
          transactionDate: "2025-02-02T10:00:00.000Z",
          credits: 500,
          amount: 9.99,
          currency: "eur",
        },
      ],
      daily: Array.from({ length: 30 }, (_, i) => ({
        date: `2025-02-${String(i + 1).padStart(2, "0")}`,
        credits: i === 3 ? 15 : 0,
      })),
    },
    lastActivity: "2025-02-03T10:00:00.000Z",
    ...patch,
  };
}

const ok = (data: UserDashboardMetrics) => () => jsonResponse({ success: true, data });

// Lazy bundles, typing and clicks: give slow, shared machines time.
const SLOW = { timeout: 20_000 };

describe("user overview /dashboard", () => {
  it(
    "shows skeletons while loading, then the four cards, summary and recent transactions",
    SLOW,
    async () => {
      storeSession();
      let release: (() => void) | undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      overviewApi(async () => {
        await gate;
        return jsonResponse({ success: true, data: metrics() });
      });
      renderApp("/dashboard");
      const calls = await screen.findByTestId("card-calls");
      expect(within(calls).queryByText("3")).toBeNull();
      release?.();
      await waitFor(() => expect(within(calls).getByText("3")).toBeInTheDocument());
      // Issue 24: 83 s over three calls read "1m" while three started minutes were billed.
      expect(
        within(calls).getByText("Total talk time: 1m 23s · 3 minutes billed"),
      ).toBeInTheDocument();
      const messages = screen.getByTestId("card-messages");
      expect(within(messages).getByText("42")).toBeInTheDocument();
      expect(within(messages).getByText("4 free messages remaining today")).toBeInTheDocument();
      const subscription = screen.getByTestId("card-subscription");
      expect(within(subscription).getByText("Inactive")).toBeInTheDocument();
      expect(
        within(subscription).getByRole("button", { name: "Subscribe now" }),
      ).toBeInTheDocument();
      expect(screen.getByRole("button", { name: "Subscribe Now" })).toBeInTheDocument();
      expect(screen.getByText("15 credits used")).toBeInTheDocument();
      const row = screen.getByTestId("recent-transaction");
      expect(within(row).getByText("500")).toBeInTheDocument();
      // In the purchase's own currency, never an assumed dollar (issue 24).
      expect(within(row).getByText("€9.99")).toBeInTheDocument();
      expect(within(row).getByText("Completed")).toBeInTheDocument();
      expect(screen.getByRole("link", { name: "View All" })).toHaveAttribute(
        "href",
        "/dashboard/transactions",
      );
      expect(await screen.findByTestId("credit-use-chart")).toBeInTheDocument();
      // Subscribe now opens the subscription dialog where the fan is, not the credits page.
      await userEvent.click(within(subscription).getByRole("button", { name: "Subscribe now" }));
      expect(
        await screen.findByRole("dialog", { name: /Subscribe to a Plan|Manage Subscription/ }),
      ).toBeInTheDocument();
    },
  );

  it(
    "empty: no transactions, no credit use, unlimited messages for a subscriber",
    SLOW,
    async () => {
      storeSession();
      overviewApi(
        ok(
          metrics({
            user: {
              credits: 0,
              createdAt: "2025-01-01T00:00:00.000Z",
              subscription: { status: "active", planName: "Gold", endDate: null },
            },
            calls: { total: 0, totalDuration: 0, minutesBilled: 0, lastCallDate: null },
            messages: { total: 0, remaining: "unlimited" },
            creditUsage: { total: 0, recent: [], daily: [] },
            lastActivity: null,
          }),
        ),
      );
      renderApp("/dashboard");
      expect(await screen.findByText("No transactions yet")).toBeInTheDocument();
      expect(screen.getByText("No credits used in the last 30 days")).toBeInTheDocument();
      expect(screen.getByText("Unlimited messages")).toBeInTheDocument();
      expect(screen.getByText("Gold")).toBeInTheDocument();
      expect(screen.queryByRole("button", { name: /Subscribe Now/i })).toBeNull();
    },
  );

  it(
    "canceling: the plan is kept, shown as Canceling, Premium, with no Subscribe now",
    SLOW,
    async () => {
      storeSession();
      overviewApi(
        ok(
          metrics({
            user: {
              credits: 0,
              createdAt: "2025-01-01T00:00:00.000Z",
              subscription: {
                status: "canceled",
                planName: "Gold",
                endDate: "2099-01-01T00:00:00.000Z",
              },
            },
            calls: { total: 0, totalDuration: 0, minutesBilled: 0, lastCallDate: null },
            messages: { total: 0, remaining: "unlimited" },
            creditUsage: { total: 0, recent: [], daily: [] },
            lastActivity: null,
          }),
        ),
      );
      renderApp("/dashboard");
      const card = await screen.findByTestId("card-subscription");
      await waitFor(() => expect(card).toHaveTextContent("Canceling"));
      expect(card).toHaveTextContent("Gold");
      expect(screen.getByText("Premium")).toBeInTheDocument();
      expect(screen.queryByRole("link", { name: /Subscribe Now/i })).toBeNull();
    },
  );

  it("error: the inline message and the toast", SLOW, async () => {
    storeSession();
    overviewApi(() => jsonResponse({ success: false, message: "boom" }, 500));
    renderApp("/dashboard");
    expect(await screen.findByText(OVERVIEW_TEXT.loadFailedInline)).toBeInTheDocument();
    expect(await screen.findByText(OVERVIEW_TEXT.loadFailedToast)).toBeInTheDocument();
  });

  it("a failed refresh keeps the figures and says Refresh failed", SLOW, async () => {
    storeSession();
    let fail = false;
    overviewApi(() =>
      fail
        ? jsonResponse({ success: false, message: "boom" }, 400)
        : jsonResponse({ success: true, data: metrics() }),
    );
    renderApp("/dashboard");
    const calls = await screen.findByTestId("card-calls");
    await waitFor(() => expect(within(calls).getByText("3")).toBeInTheDocument());
    fail = true;
    await userEvent.setup().click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByText(OVERVIEW_TEXT.refreshFailedTitle)).toBeInTheDocument();
    expect(screen.getByText(OVERVIEW_TEXT.refreshFailedText)).toBeInTheDocument();
    expect(within(calls).getByText("3")).toBeInTheDocument();
    expect(screen.getByText(OVERVIEW_TEXT.loadFailedInline)).toBeInTheDocument();
  });

  it("goes on to the tab a character page asked for", SLOW, async () => {
    storeSession();
    overviewApi(ok(metrics()));
    const { router } = renderApp("/dashboard?initialTab=chat&characterId=1");
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/chat"));
  });
});
