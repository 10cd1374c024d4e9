import { act, configure, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  AI_MARKER_LABEL,
  aiNoticeText,
  type ChatMessage,
  defaultPublicSettings,
  routes,
  type SendMessageResult,
} from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ApiCall, mockApi, on } from "@/test/api-mock";
import { jsonResponse, makeUser, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";
import { ChatPage } from "./components/chat-page";
import { CHAT_TEXT } from "./messages";

configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  toast.remove();
});

const CONVERSATION = "c0ffee00-0000-4000-8000-000000000001";

function message(n: number, patch: Partial<ChatMessage> = {}): ChatMessage {
  return {
    _id: `m${n}`,
    conversationId: CONVERSATION,
    sender: n % 2 === 0 ? "ai" : "user",
    content: `Message ${n}`,
    timestamp: new Date(Date.UTC(2025, 0, 5, 10, 0, n)).toISOString(),
    ...patch,
  };
}

/** Messages 1..total; page 1 holds the newest `limit`, each page oldest to newest. */
function pageOf(total: number, page: number, limit = 20) {
  const all = Array.from({ length: total }, (_, i) => message(i + 1));
  const end = total - (page - 1) * limit;
  const start = Math.max(0, end - limit);
  return {
    success: true,
    data: {
      messages: all.slice(start, Math.max(0, end)),
      pagination: { total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) },
    },
  };
}

function usage(remaining: number | "unlimited" = 3) {
  return { success: true, data: { total: 7, sentToday: 2, dailyLimit: 5, remaining } };
}

function result(text: string, remaining: number | "unlimited" = 2): SendMessageResult {
  return {
    response: text,
    conversationId: CONVERSATION,
    userMessage: message(101, { sender: "user", content: "Hello" }),
    aiMessage: message(102, { sender: "ai", content: text }),
    remaining,
  };
}

/** A text/event-stream answer the test writes piece by piece. */
function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { headers: { "content-type": "text/event-stream" } }),
    event: (name: string, data: unknown) =>
      controller.enqueue(encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)),
    close: () => controller.close(),
  };
}

function sse(events: [string, unknown][]): Response {
  const text = events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  return new Response(text.join(""), { headers: { "content-type": "text/event-stream" } });
}

type Answer = ((call: ApiCall) => Response | Promise<Response>) | object;

/** The chat's calls through msw: the account (routes.auth) and the chat (routes.chat). */
function chatApi(
  answers: {
    messages?: Answer;
    usage?: Answer;
    send?: Answer;
    clear?: Answer;
    settings?: unknown;
  } = {},
  total = 3,
) {
  storeSession();
  return mockApi(
    [
      on(routes.auth.me, { success: true, data: makeUser() }),
      on(
        routes.chat.messages,
        (answers.messages ?? (() => jsonResponse(pageOf(total, 1)))) as never,
      ),
      on(routes.chat.usage, (answers.usage ?? usage()) as never),
      ...(answers.send ? [on(routes.chat.send, answers.send as never)] : []),
      ...(answers.clear ? [on(routes.chat.clearHistory, answers.clear as never)] : []),
    ],
    { settings: answers.settings ?? defaultPublicSettings },
  );
}

/** The chat screen alone, with a Subscribe spy (the route passes navigation). */
function renderChat() {
  const onSubscribe = vi.fn();
  const utils = renderApp("/chat-test", [
    { path: "chat-test", element: <ChatPage onSubscribe={onSubscribe} /> },
  ]);
  return { ...utils, onSubscribe };
}

const box = () => screen.getByRole("textbox", { name: /^Message / });

describe("chat screen", () => {
  it("shows the persona, the history as a log and today's free messages left", async () => {
    chatApi();
    renderApp("/dashboard/chat");
    const log = await screen.findByRole("log", {
      name: "Conversation with AI Celebrity Assistant",
    });
    expect(log).toHaveAttribute("aria-live", "polite");
    await waitFor(() => expect(within(log).getAllByRole("listitem")).toHaveLength(3));
    expect(within(log).getByText("Message 1")).toBeInTheDocument();
    expect(
      screen.getByRole("heading", { name: defaultPublicSettings.aiProfile.name }),
    ).toBeInTheDocument();
    expect(await screen.findByText("3 free messages left today")).toBeInTheDocument();
    expect(screen.getByTestId("word-counter")).toHaveTextContent("0 / 500");
  });

  it("marks a message whose reply failed, as the server keeps it (after a reload too)", async () => {
    chatApi({
      messages: () =>
        jsonResponse({
          success: true,
          data: {
            messages: [message(1, { content: "Are you there?", replyFailed: true })],
            pagination: { total: 1, page: 1, limit: 20, pages: 1 },
          },
        }),
    });
    renderChat();
    const mark = await screen.findByTestId("reply-failed");
    expect(mark).toHaveTextContent(CHAT_TEXT.replyFailedMark);
    expect(within(screen.getByRole("log")).getAllByRole("listitem")).toHaveLength(1);
  });

  it("shows unlimited for subscribers", async () => {
    chatApi({ usage: usage("unlimited") });
    renderChat();
    expect(await screen.findByText("Unlimited messages")).toBeInTheDocument();
  });

  it("shows the user's message at once and renders the reply as it streams", async () => {
    const stream = controlledStream();
    const api = chatApi({ send: () => stream.response });
    renderChat();
    await screen.findByText("Message 3");
    const user = userEvent.setup();
    await user.type(box(), "Hello{Enter}");

    expect(box()).toHaveValue("");
    const mine = screen.getAllByTestId("user-message").at(-1);
    expect(mine).toHaveTextContent("Hello");
    expect(await screen.findByTestId("typing-indicator")).toBeInTheDocument();

    const [call] = api.callsTo(routes.chat.send);
    expect(call?.body).toEqual({ message: "Hello", conversationId: CONVERSATION });
    expect(call?.headers.get("accept")).toBe("text/event-stream");
    expect(call?.headers.get("authorization")).toBe("Bearer user-token");
    expect(call?.headers.get("csrf-token")).toBe("csrf-1");

    await act(async () => stream.event("token", { text: "Hi" }));
    await waitFor(() =>
      expect(screen.getAllByTestId("ai-message").at(-1)).toHaveTextContent(/^.*Hi$/),
    );
    expect(screen.queryByTestId("typing-indicator")).not.toBeInTheDocument();
    expect(screen.getAllByTestId("ai-message").at(-1)).toHaveAttribute("data-state", "streaming");

    await act(async () => stream.event("token", { text: " there, **friend**" }));
    await waitFor(() =>
      expect(screen.getAllByTestId("ai-message").at(-1)).toHaveTextContent("Hi there, friend"),
    );

    await act(async () => {
      stream.event("done", result("Hi there, **friend**", 2));
      stream.close();
    });
    await waitFor(() =>
      expect(screen.getAllByTestId("ai-message").at(-1)).not.toHaveAttribute("data-state"),
    );
    const reply = screen.getAllByTestId("ai-message").at(-1) as HTMLElement;
    expect(within(reply).getByText("friend").tagName).toBe("STRONG");
    expect(await screen.findByText("2 free messages left today")).toBeInTheDocument();
  });

  it("shows the AI marker beside the name, and the product's notice (not a persona bubble) before the reply", async () => {
    const notice = message(103, {
      sender: "product",
      productKind: "ai-notice",
      content: aiNoticeText("AI Celebrity Assistant"),
    });
    const stream = controlledStream();
    chatApi({ send: () => stream.response });
    renderChat();
    await screen.findByText("Message 3");
    expect(screen.getByTestId("ai-marker")).toHaveTextContent("AI");
    expect(screen.getByTestId("ai-marker")).toHaveAttribute("title", AI_MARKER_LABEL);
    const user = userEvent.setup();
    await user.type(box(), "Hello{Enter}");

    await act(async () => stream.event("notice", notice));
    const note = await screen.findByRole("note", { name: "AI notice" });
    expect(note).toHaveTextContent(aiNoticeText("AI Celebrity Assistant"));
    expect(screen.getAllByTestId("ai-message")).toHaveLength(1);

    await act(async () => {
      stream.event("token", { text: "Hi" });
      stream.event("done", { ...result("Hi", 2), notices: [notice] });
      stream.close();
    });
    await waitFor(() => expect(screen.getAllByTestId("ai-message")).toHaveLength(2));
    // Shown once, between the fan's message and the reply.
    expect(screen.getAllByTestId("product-notice")).toHaveLength(1);
    const order = within(screen.getByRole("log"))
      .getAllByRole("listitem")
      .map((item) => item.getAttribute("data-testid"))
      .slice(-3);
    expect(order).toEqual(["user-message", "product-notice", "ai-message"]);
  });

  it("Shift+Enter adds a line; empty and blank messages are not sent", async () => {
    const api = chatApi({
      send: () => sse([["done", result("ok")]]),
    });
    renderChat();
    await screen.findByText("Message 3");
    const user = userEvent.setup();
    await user.type(box(), "   {Enter}");
    await user.type(box(), "{Shift>}{Enter}{/Shift}");
    expect(api.callsTo(routes.chat.send)).toHaveLength(0);
    expect(screen.getByRole("button", { name: "Send message" })).toBeDisabled();

    await user.clear(box());
    await user.type(box(), "line one{Shift>}{Enter}{/Shift}line two");
    expect(box()).toHaveValue("line one\nline two");
    expect(api.callsTo(routes.chat.send)).toHaveLength(0);
    await user.keyboard("{Enter}");
    await waitFor(() => expect(api.callsTo(routes.chat.send)).toHaveLength(1));
    expect(api.callsTo(routes.chat.send)[0]?.body).toMatchObject({
      message: "line one\nline two",
    });
  });

  it("counts words and blocks typing past maxWordsPerMessage", async () => {
    chatApi({ settings: { ...defaultPublicSettings, maxWordsPerMessage: 3 } });
    renderChat();
    await screen.findByText("Message 3");
    await waitFor(() => expect(screen.getByTestId("word-counter")).toHaveTextContent("0 / 3"));
    const user = userEvent.setup();
    await user.type(box(), "one two three four");
    expect(box()).toHaveValue("one two three ");
    expect(screen.getByTestId("word-counter")).toHaveTextContent("3 / 3");
    expect(await screen.findByText(CHAT_TEXT.wordLimitTitle)).toBeInTheDocument();
    expect(screen.getByText("Messages cannot exceed 3 words")).toBeInTheDocument();
  });

  it("on the daily limit shows the bubble, the toast with the limit and Subscribe, and gives the text back", async () => {
    chatApi({
      send: () =>
        jsonResponse(
          {
            success: false,
            message: "Daily free message limit reached",
            error: "Daily free message limit reached",
            dailyLimit: 5,
          },
          403,
        ),
    });
    const { onSubscribe } = renderChat();
    await screen.findByText("Message 3");
    const user = userEvent.setup();
    await user.type(box(), "One more{Enter}");
    expect(await screen.findByText(CHAT_TEXT.limitBubble)).toBeInTheDocument();
    expect(await screen.findByText(CHAT_TEXT.limitToastTitle)).toBeInTheDocument();
    expect(screen.getByText(/all 5 free messages/)).toBeInTheDocument();
    expect(box()).toHaveValue("One more");
    expect(await screen.findByText("0 free messages left today")).toBeInTheDocument();
    const status = screen.getByRole("status", { name: "" });
    await user.click(within(status).getByRole("button", { name: "Subscribe" }));
    expect(onSubscribe).toHaveBeenCalledTimes(1);
  });

  it("on a failed reply the server kept shows the fallback bubble and 'Failed to get AI response'", async () => {
    chatApi({
      send: () => jsonResponse({ success: false, message: "Failed to get AI response" }, 502),
    });
    renderChat();
    await screen.findByText("Message 3");
    const user = userEvent.setup();
    await user.type(box(), "Hello{Enter}");
    expect(await screen.findByText(CHAT_TEXT.fallbackBubble)).toBeInTheDocument();
    expect(await screen.findByText("Failed to get AI response")).toBeInTheDocument();
    expect(box()).toHaveValue("");
  });

  it("on a stream error event shows the fallback bubble", async () => {
    chatApi({
      send: () =>
        sse([
          ["token", { text: "Half a rep" }],
          ["error", { message: "Failed to get AI response", status: 502 }],
        ]),
    });
    renderChat();
    await screen.findByText("Message 3");
    await userEvent.setup().type(box(), "Hello{Enter}");
    expect(await screen.findByText(CHAT_TEXT.fallbackBubble)).toBeInTheDocument();
    expect(await screen.findByText("Failed to get AI response")).toBeInTheDocument();
    expect(screen.queryByText("Half a rep")).not.toBeInTheDocument();
  });

  it("when the service cannot be reached: fallback bubble, 'Error communicating with AI service', text back", async () => {
    chatApi({
      // A network failure, as fetch reports it.
      send: () => Response.error(),
    });
    renderChat();
    await screen.findByText("Message 3");
    await userEvent.setup().type(box(), "Are you there?{Enter}");
    expect(await screen.findByText(CHAT_TEXT.fallbackBubble)).toBeInTheDocument();
    expect(await screen.findByText("Error communicating with AI service")).toBeInTheDocument();
    expect(screen.getByText("Not sent")).toBeInTheDocument();
    expect(box()).toHaveValue("Are you there?");
  });

  it("clears the history after the confirmation", async () => {
    const api = chatApi({
      clear: { success: true, message: "Chat history cleared" },
    });
    renderChat();
    await screen.findByText("Message 3");
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Clear chat history" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent(CHAT_TEXT.clearConfirm);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(api.callsTo(routes.chat.clearHistory)).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Clear chat history" }));
    await user.click(
      within(await screen.findByRole("alertdialog")).getByRole("button", {
        name: "Clear history",
      }),
    );
    await waitFor(() => expect(screen.queryByText("Message 3")).not.toBeInTheDocument());
    expect(api.callsTo(routes.chat.clearHistory)).toHaveLength(1);
    expect(await screen.findByText("Chat history cleared")).toBeInTheDocument();
    expect(screen.getByText(/Say hello to/)).toBeInTheDocument();
  });

  it("says 'Failed to clear chat history' when clearing fails", async () => {
    chatApi({
      clear: () => jsonResponse({ success: false, message: "Internal Server Error" }, 500),
    });
    renderChat();
    await screen.findByText("Message 3");
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Clear chat history" }));
    await user.click(
      within(await screen.findByRole("alertdialog")).getByRole("button", {
        name: "Clear history",
      }),
    );
    expect(await screen.findByText("Failed to clear chat history")).toBeInTheDocument();
    expect(screen.getByText("Message 3")).toBeInTheDocument();
  });

  it("loads older messages within 30 px of the top and keeps the reader's place", async () => {
    const asked: number[] = [];
    chatApi({
      messages: ({ url }: ApiCall) => {
        const page = Number(url.searchParams.get("page"));
        asked.push(page);
        return url.searchParams.get("limit") === "20"
          ? jsonResponse(pageOf(25, page))
          : jsonResponse({ success: false, message: "limit" }, 400);
      },
    });
    renderChat();
    await screen.findByText("Message 25");
    expect(screen.queryByText("Message 5")).not.toBeInTheDocument();
    const list = screen.getByTestId("chat-scroll");
    let top = 0;
    Object.defineProperties(list, {
      scrollHeight: { configurable: true, get: () => list.querySelectorAll("li").length * 50 },
      clientHeight: { configurable: true, get: () => 300 },
      scrollTop: {
        configurable: true,
        get: () => top,
        set: (value: number) => {
          top = value;
        },
      },
    });
    top = 40;
    fireEvent.scroll(list);
    expect(asked).toEqual([1]);
    top = 25;
    fireEvent.scroll(list);
    expect(await screen.findByText("Message 5")).toBeInTheDocument();
    expect(asked).toEqual([1, 2]);
    // 20 items were 1000 px tall; 5 more (250 px) went in above: the view moved down by that much.
    await waitFor(() => expect(top).toBe(250 + 25));
    const texts = within(screen.getByRole("log"))
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(texts[0]).toContain("Message 1");
    expect(texts.at(-1)).toContain("Message 25");
  });

  it("says 'Failed to load chat data' with a retry when the history cannot load", async () => {
    let fail = true;
    chatApi({
      messages: () =>
        fail
          ? jsonResponse({ success: false, message: "Internal Server Error" }, 500)
          : jsonResponse(pageOf(1, 1)),
    });
    renderChat();
    expect(await screen.findByRole("alert")).toHaveTextContent(CHAT_TEXT.failedLoadChat);
    fail = false;
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Message 1")).toBeInTheDocument();
  });

  it("renders replies as sanitised markdown with safe links", async () => {
    chatApi({
      messages: () =>
        jsonResponse({
          success: true,
          data: {
            messages: [
              message(2, {
                content:
                  'See [the site](https://example.com) <img src=x onerror="alert(1)"> [bad](javascript:alert(1))',
              }),
            ],
            pagination: { total: 1, page: 1, limit: 20, pages: 1 },
          },
        }),
    });
    renderChat();
    const link = await screen.findByRole("link", { name: "the site" });
    expect(link).toHaveAttribute("href", "https://example.com");
    expect(link).toHaveAttribute("target", "_blank");
    expect(link).toHaveAttribute("rel", "noopener noreferrer");
    const reply = screen.getByTestId("ai-message");
    expect(reply.querySelector("img")).toBeNull();
    expect(reply).toHaveTextContent('<img src=x onerror="alert(1)">');
    expect(screen.getByText("bad").getAttribute("href") ?? "").not.toMatch(/javascript/i);
  });
});
