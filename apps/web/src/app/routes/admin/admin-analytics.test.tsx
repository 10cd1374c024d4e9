import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes, type UserInteraction } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockAdminApi, signInAdmin } from "@/test/admin";
import { on } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

configure({ asyncUtilTimeout: 5000 });
afterEach(() => {
  toast.remove();
  vi.restoreAllMocks();
});

function interaction(patch: Partial<UserInteraction> = {}): UserInteraction {
  return {
    id: "u1",
    name: "Test User",
    email: "user1@example.com",
    profileImage: "/uploads/missing.png",
    interactionTime: 3725,
    creditsUsed: 40,
    lastInteraction: "2026-03-14T10:00:00.000Z",
    ...patch,
  };
}

function page(rows: UserInteraction[], total = rows.length, pageNo = 1) {
  return {
    success: true,
    data: {
      userInteractions: rows,
      totalInteractedUsers: total,
      totalInteractionTime: 7200,
      avgInteractionTime: 600,
    },
    pagination: { total, page: pageNo, limit: 10, pages: Math.max(1, Math.ceil(total / 10)) },
  };
}

const ANALYTICS = routes.dashboards.userAnalytics;

// Lazy bundles, typing and clicks: give slow, shared machines time.
const SLOW = { timeout: 20_000 };

describe("user analytics", () => {
  it(
    "data: cards, rows, default sort lastInteraction descending, Showing X to Y of Z users",
    SLOW,
    async () => {
      signInAdmin();
      const api = mockAdminApi([
        on(ANALYTICS, ({ url }) =>
          jsonResponse(
            page(
              [
                interaction(),
                interaction({ id: "u2", name: "Second User", email: "user2@example.com" }),
              ],
              12,
              Number(url.searchParams.get("page") ?? 1),
            ),
          ),
        ),
      ]);
      renderApp("/admin/UserAnalytics");
      const rows = await screen.findAllByTestId("analytics-row");
      expect(rows).toHaveLength(2);
      const first = rows[0];
      if (!first) throw new Error("no row");
      expect(within(first).getByText("1h 2m")).toBeInTheDocument();
      expect(within(first).getByText("40")).toBeInTheDocument();
      const cards = screen.getAllByTestId("analytics-card");
      expect(cards[0]).toHaveTextContent("Total Interacted Users12");
      expect(cards[1]).toHaveTextContent("Total Interaction Time2h 0m");
      expect(cards[2]).toHaveTextContent("Avg. Interaction Time10m");
      expect(screen.getByText("Showing 1 to 10 of 12 users")).toBeInTheDocument();
      const query = Object.fromEntries(api.callsTo(ANALYTICS)[0]?.url.searchParams ?? []);
      expect(query).toMatchObject({
        sortBy: "lastInteraction",
        sortOrder: "-1",
        page: "1",
        limit: "10",
      });
      expect(screen.getByRole("columnheader", { name: /Last Interaction/ })).toHaveAttribute(
        "aria-sort",
        "descending",
      );

      const user = userEvent.setup();
      await user.click(screen.getByRole("button", { name: "Next" }));
      await waitFor(() =>
        expect(api.callsTo(ANALYTICS).at(-1)?.url.searchParams.get("page")).toBe("2"),
      );
      await user.type(screen.getByLabelText("Search users by name or email"), "SECOND");
      await waitFor(() =>
        expect(api.callsTo(ANALYTICS).at(-1)?.url.searchParams.get("search")).toBe("SECOND"),
      );
      expect(api.callsTo(ANALYTICS).at(-1)?.url.searchParams.get("page")).toBe("1");
    },
  );

  it("a failed image becomes an initials avatar", SLOW, async () => {
    signInAdmin();
    mockAdminApi([on(ANALYTICS, () => jsonResponse(page([interaction()])))]);
    renderApp("/admin/UserAnalytics");
    const row = (await screen.findAllByTestId("analytics-row"))[0];
    if (!row) throw new Error("no row");
    const img = row.querySelector("img");
    img?.dispatchEvent(new Event("error"));
    await waitFor(() => expect(within(row).getByText("TU")).toBeInTheDocument());
  });

  it("empty: no interactions yet", SLOW, async () => {
    signInAdmin();
    mockAdminApi([on(ANALYTICS, () => jsonResponse(page([])))]);
    renderApp("/admin/UserAnalytics");
    expect(await screen.findByText("No user interactions yet")).toBeInTheDocument();
    expect(screen.getByText("Showing 0 users")).toBeInTheDocument();
  });

  it(
    "error: Error loading analytics with the server's message, else the fallback",
    SLOW,
    async () => {
      signInAdmin();
      mockAdminApi([
        on(ANALYTICS, () => jsonResponse({ success: false, message: "Database busy" }, 400)),
      ]);
      const { unmount } = renderApp("/admin/UserAnalytics");
      expect(await screen.findByText("Error loading analytics: Database busy")).toBeInTheDocument();
      unmount();
      mockAdminApi([on(ANALYTICS, () => jsonResponse({ nonsense: true }))]);
      renderApp("/admin/UserAnalytics");
      expect(await screen.findByText(/^Error loading analytics: /)).toBeInTheDocument();
    },
  );
});

describe("crisis referrals (issue 25 item 3)", () => {
  it(
    "shows the 30-day total and the days with referrals, and exports them as CSV",
    SLOW,
    async () => {
      const create = vi.fn(() => "blob:csv");
      Object.assign(URL, { createObjectURL: create, revokeObjectURL: vi.fn() });
      const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
      signInAdmin();
      const api = mockAdminApi([
        on(ANALYTICS, () => jsonResponse(page([]))),
        on(routes.chatLogs.crisisReferrals, () =>
          jsonResponse({
            success: true,
            data: {
              days: [
                { date: "2026-11-25", referrals: 0 },
                { date: "2026-11-26", referrals: 2 },
                { date: "2026-11-27", referrals: 1 },
              ],
              total: 3,
            },
          }),
        ),
        on(
          routes.chatLogs.crisisReferralsExport,
          () =>
            new Response('"Date (UTC)","Crisis referrals"\r\n"2026-11-26","2"\r\n', {
              headers: { "content-type": "text/csv" },
            }),
        ),
      ]);
      renderApp("/admin/UserAnalytics");
      const card = await screen.findByTestId("crisis-referrals");
      await within(card).findByText("3");
      expect(api.callsTo(routes.chatLogs.crisisReferrals)[0]?.url.searchParams.get("days")).toBe(
        "30",
      );
      const rows = within(card)
        .getAllByRole("row")
        .slice(1)
        .map((row) => row.textContent);
      expect(rows).toEqual(["2026-11-262", "2026-11-271"]);

      await userEvent.setup().click(within(card).getByRole("button", { name: "Export CSV" }));
      expect(await screen.findByText("Crisis referrals exported to CSV")).toBeInTheDocument();
      const [call] = api.callsTo(routes.chatLogs.crisisReferralsExport);
      expect(call?.url.searchParams.get("days")).toBe("30");
      expect(call?.headers.get("authorization")).toBe("Bearer admin-token");
      const blob = (create.mock.calls[0] as unknown as [Blob])[0];
      expect(await blob.text()).toContain('"2026-11-26","2"');
      expect(click).toHaveBeenCalledTimes(1);
    },
  );
});
