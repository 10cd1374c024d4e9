import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { growth, mockAdminApi, signInAdmin } from "@/test/admin";
import { on } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

configure({ asyncUtilTimeout: 5000 });
afterEach(() => {
  toast.remove();
});

function cardValue(testId: string, label: string) {
  const card = screen
    .getAllByTestId(testId)
    .find((element) => within(element).queryByText(label) !== null);
  if (!card) throw new Error(`no card ${label}`);
  return card;
}

// Lazy bundles, typing and clicks: give slow, shared machines time.
const SLOW = { timeout: 20_000 };

describe("admin dashboard", () => {
  it("/admin lands on the dashboard", SLOW, async () => {
    signInAdmin();
    mockAdminApi();
    const { router } = renderApp("/admin");
    await waitFor(() => expect(router.state.location.pathname).toBe("/admin/dashboard"));
  });

  it("loading: $0.00 for Total Revenue until the figures arrive", SLOW, async () => {
    signInAdmin();
    let release: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    mockAdminApi([
      on(routes.dashboards.metrics, async () => {
        await gate;
        return jsonResponse(growth);
      }),
    ]);
    renderApp("/admin/dashboard");
    await screen.findByRole("heading", { name: "Dashboard", level: 1 });
    expect(cardValue("metric-card", "Total Revenue")).toHaveTextContent("$0.00");
    release?.();
    await waitFor(() =>
      expect(cardValue("metric-card", "Total Revenue")).toHaveTextContent("$12,345.50"),
    );
  });

  it(
    "data: the four cards, the user growth and revenue groups, the charts with a 30/90 switch",
    SLOW,
    async () => {
      signInAdmin();
      const api = mockAdminApi();
      renderApp("/admin/dashboard");
      await waitFor(() => expect(cardValue("metric-card", "Total Users")).toHaveTextContent("42"));
      expect(cardValue("metric-card", "Total Paid Users")).toHaveTextContent("7");
      expect(cardValue("metric-card", "Call Conversions")).toHaveTextContent("33.3%");
      expect(cardValue("growth-card", "Today's Users")).toHaveTextContent("3");
      expect(cardValue("growth-card", "Last Month's Users")).toHaveTextContent("25");
      // Euros and rupees beside the dollars, never added to them.
      expect(cardValue("revenue-card", "Today's Revenue")).toHaveTextContent(
        "Today's Revenue$19.99€5.00 · ₹1,234.50",
      );
      expect(cardValue("revenue-card", "This Month's Revenue")).toHaveTextContent("$1,200.00");
      expect(cardValue("revenue-card", "Last Month's Revenue")).toHaveTextContent("$3,400.25");
      expect(await screen.findByTestId("series-charts")).toBeInTheDocument();
      expect(api.callsTo(routes.dashboards.series)[0]?.url.searchParams.get("days")).toBe("30");
      await userEvent.setup().click(screen.getByRole("button", { name: "90 days" }));
      await waitFor(() =>
        expect(api.callsTo(routes.dashboards.series).at(-1)?.url.searchParams.get("days")).toBe(
          "90",
        ),
      );
      expect(screen.getByRole("button", { name: "90 days" })).toHaveAttribute(
        "aria-pressed",
        "true",
      );
    },
  );

  it("empty: zeros read as zeros", SLOW, async () => {
    signInAdmin();
    const zero = Object.fromEntries(
      Object.keys(growth.data).map((key) => [
        key,
        key.endsWith("Revenue")
          ? { value: 0, byCurrency: [{ currency: "usd", value: 0 }] }
          : { value: 0 },
      ]),
    );
    mockAdminApi([
      on(routes.dashboards.metrics, () => jsonResponse({ success: true, data: zero })),
    ]);
    renderApp("/admin/dashboard");
    await waitFor(() => expect(cardValue("metric-card", "Total Users")).toHaveTextContent("0"));
    expect(cardValue("metric-card", "Total Revenue")).toHaveTextContent("$0.00");
    expect(cardValue("metric-card", "Call Conversions")).toHaveTextContent("0%");
  });

  it("error: Failed to load dashboard metrics", SLOW, async () => {
    signInAdmin();
    mockAdminApi([
      on(routes.dashboards.metrics, () => jsonResponse({ success: false, message: "boom" }, 400)),
    ]);
    renderApp("/admin/dashboard");
    expect(await screen.findByText("Failed to load dashboard metrics")).toBeInTheDocument();
  });
});
