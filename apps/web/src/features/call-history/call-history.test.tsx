import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes, type VoiceCallRecord } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { mockApi, on, reply } from "@/test/api-mock";
import { makeUser, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";

configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  toast.remove();
});

function record(n: number): VoiceCallRecord {
  const start = Date.UTC(2026, 0, 1, 10, 0, 0) + n * 3_600_000;
  const duration = 30 + n * 7;
  return {
    _id: `call-${n}`,
    createdAt: new Date(start).toISOString(),
    startTime: new Date(start).toISOString(),
    endTime: new Date(start + duration * 1000).toISOString(),
    duration,
    creditsConsumed: Math.ceil(duration / 60) * 5,
  };
}

/** `total` calls, newest first, answered page by page as the server does (msw, routes.voice). */
function historyApi(total: number, fail = () => false) {
  storeSession();
  const all = Array.from({ length: total }, (_, i) => record(total - i));
  return mockApi(
    [
      on(routes.auth.me, { success: true, data: makeUser() }),
      on(routes.voice.history, ({ url }) => {
        if (fail()) return reply({ success: false, message: "boom" }, 500);
        const page = Number(url.searchParams.get("page"));
        const limit = Number(url.searchParams.get("limit"));
        return {
          success: true as const,
          calls: all.slice((page - 1) * limit, page * limit),
          pagination: { total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) },
        };
      }),
    ],
    { settings: {} },
  );
}

describe("call history", () => {
  it("shows 10 calls per page with duration and credits, and pages with neighbours and ellipses", async () => {
    const api = historyApi(95);
    const { router } = renderApp("/dashboard/call-history");
    await waitFor(() => expect(screen.getAllByTestId("call-row")).toHaveLength(10));
    const first = screen.getAllByTestId("call-row")[0] as HTMLElement;
    // The newest call: 95 → 30 + 665 s = 11m 35s (shown "11m"), 12 started minutes × 5 credits.
    expect(within(first).getByText("11m")).toBeInTheDocument();
    expect(within(first).getByText("60")).toBeInTheDocument();
    expect(screen.getByText("Showing 1 to 10 of 95 calls")).toBeInTheDocument();

    const pager = screen.getByRole("navigation", { name: "Pagination" });
    const labels = () => [...pager.querySelectorAll("li")].map((item) => item.textContent);
    expect(labels()).toEqual(["", "1", "2", "…", "10", ""]);
    expect(within(pager).getByRole("button", { name: "Page 1" })).toHaveAttribute(
      "aria-current",
      "page",
    );

    await userEvent.click(within(pager).getByRole("button", { name: "Page 10" }));
    await waitFor(() => expect(screen.getAllByTestId("call-row")).toHaveLength(5));
    expect(router.state.location.search).toBe("?page=10");
    expect(labels()).toEqual(["", "1", "…", "9", "10", ""]);

    await userEvent.click(within(pager).getByRole("button", { name: "Page 9" }));
    await waitFor(() => expect(labels()).toEqual(["", "1", "…", "8", "9", "10", ""]));
    await userEvent.click(within(pager).getByRole("button", { name: "Previous page" }));
    await waitFor(() => expect(labels()).toEqual(["", "1", "…", "7", "8", "9", "10", ""]));

    const asked = api
      .callsTo(routes.voice.history)
      .map((call) => call.url.searchParams.get("limit"));
    expect(new Set(asked)).toEqual(new Set(["10"]));
  });

  it("shows an empty state with a way to start a call", async () => {
    historyApi(0);
    renderApp("/dashboard/call-history");
    expect(await screen.findByText("No calls yet")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Start a call" })).toHaveAttribute(
      "href",
      "/dashboard/call",
    );
  });

  it("says it could not load, inline and as a toast, and Try again loads", async () => {
    let failing = true;
    historyApi(3, () => failing);
    renderApp("/dashboard/call-history");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Unable to load call history. Please try again later.",
    );
    expect(await screen.findByText("Failed to fetch call history")).toBeInTheDocument();
    failing = false;
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(screen.getAllByTestId("call-row")).toHaveLength(3));
  });
});
