import { configure, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type ChatLog, routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockAdminApi, signInAdmin } from "@/test/admin";
import { on, type RouteMock } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

// The first render loads the lazy admin bundle; give slow, shared machines time.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  toast.remove();
  vi.restoreAllMocks();
});

function log(patch: Partial<ChatLog> = {}): ChatLog {
  return {
    _id: "c1",
    user: { _id: "u1", name: "Jade Fan", email: "jane@example.com", profileImage: null },
    character: "AI Celebrity Assistant",
    startTime: "2025-01-05T10:00:00.000Z",
    lastMessageAt: "2025-01-05T10:45:00.000Z",
    duration: 2700,
    messageCount: 14,
    plan: "standard",
    calls: 0,
    ...patch,
  };
}

const jane = log();
const bob = log({
  _id: "c2",
  user: { _id: "u2", name: "Bright Buyer", email: "bob@example.com", profileImage: null },
  duration: 42,
  messageCount: 2,
  plan: "premium",
});

function logsPage(rows: ChatLog[], page = 1, total = rows.length) {
  return {
    success: true,
    data: rows,
    pagination: { total, page, limit: 10, pages: Math.max(1, Math.ceil(total / 10)) },
  };
}

function logsApi(mocks: RouteMock[] = []) {
  signInAdmin();
  return mockAdminApi([
    ...mocks,
    on(routes.chatLogs.list, ({ url }) =>
      jsonResponse(logsPage([jane, bob], Number(url.searchParams.get("page") ?? 1), 25)),
    ),
  ]);
}

function lastQuery(api: ReturnType<typeof mockAdminApi>) {
  return Object.fromEntries(api.callsTo(routes.chatLogs.list).at(-1)?.url.searchParams ?? []);
}

describe("chat logs screen", () => {
  it("lists conversations with the admin token, 10 a page, newest first", async () => {
    const api = logsApi();
    renderApp("/admin/chat-logs");
    const rows = await screen.findAllByTestId("chat-log-row");
    expect(rows).toHaveLength(2);
    expect(lastQuery(api)).toEqual({
      page: "1",
      limit: "10",
      plan: "all",
      sortBy: "startTime",
      sortOrder: "-1",
    });
    expect(api.callsTo(routes.chatLogs.list)[0]?.headers.get("authorization")).toBe(
      "Bearer admin-token",
    );
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "User",
      "Character",
      "Start Time",
      "Last Message",
      "Duration",
      "Messages",
      "Plan",
      "Calls",
    ]);
    const first = within(rows[0] as HTMLElement);
    expect(first.getByText("Jade Fan")).toBeInTheDocument();
    expect(first.getByText("jane@example.com")).toBeInTheDocument();
    expect(first.getByText("JF")).toBeInTheDocument();
    expect(first.getByText("45m")).toBeInTheDocument();
    expect(first.getByText("Standard")).toBeInTheDocument();
    const second = within(rows[1] as HTMLElement);
    expect(second.getByText("42s")).toBeInTheDocument();
    expect(second.getByText("Premium")).toBeInTheDocument();
    expect(screen.getByText("Showing 1 to 10 of 25 conversations")).toBeInTheDocument();
  });

  it("counts conversations with thousands separators, as every count of the admin area", async () => {
    logsApi([on(routes.chatLogs.list, () => jsonResponse(logsPage([jane, bob], 1, 140_037)))]);
    renderApp("/admin/chat-logs");
    expect(await screen.findByText("Showing 1 to 10 of 140,037 conversations")).toBeInTheDocument();
  });

  it("shows five skeleton rows while loading and the empty message", async () => {
    let answer: (r: Response) => void = () => {};
    logsApi([
      on(
        routes.chatLogs.list,
        () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      ),
    ]);
    renderApp("/admin/chat-logs");
    expect(await screen.findAllByTestId("skeleton-row")).toHaveLength(5);
    answer(jsonResponse(logsPage([], 1, 0)));
    expect(await screen.findByText("No chat logs found")).toBeInTheDocument();
  });

  it("searches, filters by plan and dates, sorts and pages through the server, keeping it in the URL", async () => {
    const api = logsApi();
    const { router } = renderApp("/admin/chat-logs");
    await screen.findAllByTestId("chat-log-row");
    const user = userEvent.setup();

    await user.type(screen.getByLabelText("Search"), "jane");
    await waitFor(() => expect(lastQuery(api).search).toBe("jane"));
    await user.selectOptions(screen.getByLabelText("Plan"), "premium");
    await waitFor(() => expect(lastQuery(api).plan).toBe("premium"));
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2025-01-01" } });
    await waitFor(() => expect(lastQuery(api).startDate).toBe("2025-01-01"));
    fireEvent.change(screen.getByLabelText("To"), { target: { value: "2025-01-31" } });
    await waitFor(() => expect(lastQuery(api).endDate).toBe("2025-01-31"));

    await user.click(screen.getByRole("button", { name: "Messages" }));
    await waitFor(() =>
      expect(lastQuery(api)).toMatchObject({ sortBy: "messageCount", sortOrder: "-1" }),
    );
    expect(screen.getByRole("columnheader", { name: "Messages" })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
    await user.click(screen.getByRole("button", { name: "Messages" }));
    await waitFor(() => expect(lastQuery(api).sortOrder).toBe("1"));

    await user.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(lastQuery(api).page).toBe("2"));
    expect(lastQuery(api)).toEqual({
      page: "2",
      limit: "10",
      search: "jane",
      plan: "premium",
      startDate: "2025-01-01",
      endDate: "2025-01-31",
      sortBy: "messageCount",
      sortOrder: "1",
    });
    const search = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(search)).toEqual({
      page: "2",
      search: "jane",
      plan: "premium",
      startDate: "2025-01-01",
      endDate: "2025-01-31",
      sortBy: "messageCount",
      sortOrder: "1",
    });

    await user.click(screen.getByRole("button", { name: "Reset filters" }));
    await waitFor(() =>
      expect(lastQuery(api)).toEqual({
        page: "1",
        limit: "10",
        plan: "all",
        sortBy: "startTime",
        sortOrder: "-1",
      }),
    );
  });

  it("exports every matching row as CSV with the filters and the admin token", async () => {
    const create = vi.fn(() => "blob:csv");
    const revoke = vi.fn();
    Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const api = logsApi([
      on(
        routes.chatLogs.export,
        () =>
          new Response("user,email\nJade Fan,jane@example.com\n", {
            headers: { "content-type": "text/csv" },
          }),
      ),
    ]);
    renderApp("/admin/chat-logs?plan=premium&search=jane");
    await screen.findAllByTestId("chat-log-row");
    await userEvent.setup().click(screen.getByRole("button", { name: "Export CSV" }));
    expect(await screen.findByText("Export Complete")).toBeInTheDocument();
    const [call] = api.callsTo(routes.chatLogs.export);
    expect(Object.fromEntries(call?.url.searchParams ?? [])).toEqual({
      plan: "premium",
      search: "jane",
      sortBy: "startTime",
      sortOrder: "-1",
    });
    expect(call?.headers.get("authorization")).toBe("Bearer admin-token");
    expect(create).toHaveBeenCalledTimes(1);
    const blob = (create.mock.calls[0] as unknown as [Blob])[0];
    expect(await blob.text()).toContain("Jade Fan");
    expect(click).toHaveBeenCalledTimes(1);
  });

  it("says Export Failed when the export fails", async () => {
    logsApi([
      on(routes.chatLogs.export, () =>
        jsonResponse({ success: false, message: "Internal Server Error" }, 500),
      ),
    ]);
    renderApp("/admin/chat-logs");
    await screen.findAllByTestId("chat-log-row");
    await userEvent.setup().click(screen.getByRole("button", { name: "Export CSV" }));
    expect(await screen.findByText("Export Failed")).toBeInTheDocument();
  });

  it("opens a conversation's messages on demand, with paging", async () => {
    const api = logsApi([
      on(routes.chatLogs.messages, ({ url }) => {
        const page = Number(url.searchParams.get("page"));
        return jsonResponse({
          success: true,
          data: {
            messages: [
              {
                _id: `p${page}`,
                conversationId: "c1",
                sender: "user",
                content: `Hello from page ${page}`,
                timestamp: "2025-01-05T10:00:00.000Z",
              },
              {
                _id: `n${page}`,
                conversationId: "c1",
                sender: "product",
                productKind: "ai-notice",
                content: `The AI notice of page ${page}`,
                timestamp: "2025-01-05T10:00:01.000Z",
              },
            ],
            pagination: { total: 30, page, limit: 20, pages: 2 },
          },
        });
      }),
    ]);
    renderApp("/admin/chat-logs");
    await screen.findAllByTestId("chat-log-row");
    expect(api.calls.some((c) => c.url.pathname.endsWith("/messages"))).toBe(false);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: /Open the conversation of Jade Fan/ }));
    const dialog = await screen.findByTestId("conversation-dialog");
    expect(within(dialog).getByText("Conversation with Jade Fan")).toBeInTheDocument();
    expect(await within(dialog).findByText("Hello from page 1")).toBeInTheDocument();
    // The product's notice is its own row, named by its kind, with when it was given.
    const notice = within(dialog)
      .getAllByTestId("conversation-message")
      .find((row) => row.getAttribute("data-sender") === "product");
    expect(notice).toHaveTextContent(/^AI notice · .*The AI notice of page 1$/);
    const [first] = api.callsTo(routes.chatLogs.messages, { id: "c1" });
    expect(Object.fromEntries(first?.url.searchParams ?? [])).toEqual({ page: "1", limit: "20" });
    await user.click(within(dialog).getByRole("button", { name: "Next" }));
    expect(await within(dialog).findByText("Hello from page 2")).toBeInTheDocument();
  });

  it("the Flags filter keeps flagged conversations, and each flag shows its category", async () => {
    const api = logsApi([
      on(routes.chatLogs.messages, () =>
        jsonResponse({
          success: true,
          data: {
            messages: [
              {
                _id: "m1",
                conversationId: "c1",
                sender: "user",
                content: "Words the check flagged",
                timestamp: "2025-01-05T10:00:00.000Z",
                flag: { category: "self-harm/intent", source: "openai" },
              },
              {
                _id: "m2",
                conversationId: "c1",
                sender: "product",
                productKind: "crisis-support",
                content: "The caring message",
                timestamp: "2025-01-05T10:00:01.000Z",
              },
              {
                _id: "m3",
                conversationId: "c1",
                sender: "product",
                productKind: "crisis-support",
                content: "The caring message in place of a reply",
                timestamp: "2025-01-05T10:00:02.000Z",
                flag: { category: "self-harm/instructions", source: "openai" },
              },
            ],
            pagination: { total: 3, page: 1, limit: 20, pages: 1 },
          },
        }),
      ),
      on(routes.chatLogs.list, () => jsonResponse(logsPage([log({ flagged: 2 })]))),
    ]);
    renderApp("/admin/chat-logs");
    const [row] = await screen.findAllByTestId("chat-log-row");
    if (!row) throw new Error("no row");
    expect(within(row).getByText("Flagged (2)")).toBeInTheDocument();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Flags"), "flagged");
    await waitFor(() => expect(lastQuery(api).flagged).toBe("flagged"));

    await user.click(screen.getByRole("button", { name: /Open the conversation of Jade Fan/ }));
    const dialog = await screen.findByTestId("conversation-dialog");
    await within(dialog).findByText("Words the check flagged");
    expect(
      within(dialog)
        .getAllByTestId("message-flag")
        .map((flag) => flag.textContent),
    ).toEqual(["Flagged: self-harm/intent", "Replaced reply: self-harm/instructions"]);
  });

  it("shows an error toast and a retry when the list fails", async () => {
    logsApi([
      on(routes.chatLogs.list, () =>
        jsonResponse({ success: false, message: "Internal Server Error" }, 500),
      ),
    ]);
    renderApp("/admin/chat-logs");
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load chat logs");
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
    expect(await screen.findByRole("status")).toHaveTextContent("Failed to load chat logs");
  });
});
