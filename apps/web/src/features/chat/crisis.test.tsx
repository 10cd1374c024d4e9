import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  type ChatMessage,
  CRISIS_TEXT,
  crisisMessageText,
  DEFAULT_CRISIS_RESOURCES,
  defaultPublicSettings,
  routes,
  type SendMessageResult,
} from "@twinline/contracts";
import { afterEach, describe, expect, it } from "vitest";
import { mockApi, on } from "@/test/api-mock";
import { makeUser, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";
import { ChatPage } from "./components/chat-page";

// Issue 25: a send answered by the crisis message shows the product's caring card (not a
// persona bubble) and pins the crisis lines above the message box for the rest of the visit.

const CONVERSATION = "c0ffee00-0000-4000-8000-000000000002";
const CARING = crisisMessageText(DEFAULT_CRISIS_RESOURCES);

afterEach(() => sessionStorage.clear());

const message = (patch: Partial<ChatMessage>): ChatMessage => ({
  _id: "m1",
  conversationId: CONVERSATION,
  sender: "user",
  content: "",
  timestamp: new Date().toISOString(),
  ...patch,
});

function crisisResult(): SendMessageResult {
  return {
    response: CARING,
    conversationId: CONVERSATION,
    userMessage: message({ _id: "u1", content: "I want to end it all" }),
    aiMessage: message({
      _id: "p1",
      sender: "product",
      productKind: "crisis-support",
      content: CARING,
    }),
    remaining: 3,
    crisis: { resources: DEFAULT_CRISIS_RESOURCES },
  };
}

/** The chat's calls through msw: the account (routes.auth) and the chat (routes.chat). */
function chatApi(messages: ChatMessage[] = []) {
  storeSession();
  return mockApi(
    [
      on(routes.auth.me, { success: true, data: makeUser() }),
      on(routes.chat.messages, {
        success: true as const,
        data: { messages, pagination: { total: messages.length, page: 1, limit: 20, pages: 1 } },
      }),
      on(routes.chat.usage, {
        success: true as const,
        data: { total: 2, sentToday: 2, dailyLimit: 5, remaining: 3 },
      }),
      on(
        routes.chat.send,
        () =>
          new Response(`event: done\ndata: ${JSON.stringify(crisisResult())}\n\n`, {
            headers: { "content-type": "text/event-stream" },
          }),
      ),
    ],
    { settings: defaultPublicSettings },
  );
}

const renderChat = () =>
  renderApp("/chat-test", [{ path: "chat-test", element: <ChatPage onSubscribe={() => {}} /> }]);

describe("the crisis message in the chat", () => {
  it("shows the caring card and pins the crisis lines, using no free message", async () => {
    chatApi();
    renderChat();
    await screen.findByText("3 free messages left today");
    expect(screen.queryByTestId("crisis-resources")).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(
      screen.getByRole("textbox", { name: /^Message / }),
      "I want to end it all{Enter}",
    );

    const card = await screen.findByTestId("crisis-message");
    expect(card).toHaveTextContent(CRISIS_TEXT.intro);
    expect(screen.queryAllByTestId("ai-message")).toHaveLength(0);
    const pinned = screen.getByRole("region", { name: CRISIS_TEXT.pinnedTitle });
    expect(within(pinned).getByRole("link", { name: "Call or text 988" })).toHaveAttribute(
      "href",
      "tel:988",
    );
    expect(within(pinned).getByRole("link", { name: "Call 116 123" })).toHaveAttribute(
      "href",
      "tel:116123",
    );
    expect(within(pinned).getByRole("link", { name: "findahelpline.com" })).toHaveAttribute(
      "href",
      "https://findahelpline.com",
    );
    expect(screen.getByText("3 free messages left today")).toBeInTheDocument();

    // Folded, never removed.
    await user.click(within(pinned).getByRole("button", { name: CRISIS_TEXT.pinnedDismiss }));
    expect(within(pinned).getByRole("button", { name: "Show" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
    expect(within(pinned).queryByRole("link", { name: "Call or text 988" })).toBeNull();
  });

  it("pins the lines for a crisis message given earlier in this visit (a call's)", async () => {
    chatApi([
      message({
        _id: "p2",
        sender: "product",
        productKind: "crisis-support",
        content: CARING,
      }),
    ]);
    renderChat();
    await screen.findByTestId("crisis-message");
    await waitFor(() => expect(screen.getByTestId("crisis-resources")).toBeInTheDocument());
  });

  it("does not pin anything for an old crisis message of an earlier visit", async () => {
    chatApi([
      message({
        _id: "p3",
        sender: "product",
        productKind: "crisis-support",
        content: CARING,
        timestamp: "2025-01-05T10:00:00.000Z",
      }),
    ]);
    renderChat();
    await screen.findByTestId("crisis-message");
    expect(screen.queryByTestId("crisis-resources")).not.toBeInTheDocument();
  });
});
