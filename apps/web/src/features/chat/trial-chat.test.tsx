import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  type ChatMessage,
  defaultPublicSettings,
  routes,
  type SendMessageResult,
  TRIAL_CODES,
  TRIAL_MESSAGES,
} from "@twinline/contracts";
import { describe, expect, it, vi } from "vitest";
import { mockApi, on, reply } from "@/test/api-mock";
import { renderApp } from "@/test/render";

// The landing page's anonymous trial (decision 0084) over routes.trial: the state, and the
// send streamed as the member chat's (streamRoute), answered by msw.

vi.setConfig({ testTimeout: 20_000 });

const settings = { ...defaultPublicSettings, anonymousMessages: 3 };

function message(id: string, sender: ChatMessage["sender"], content: string): ChatMessage {
  return {
    _id: id,
    conversationId: "c1",
    sender,
    content,
    timestamp: "2025-01-05T10:00:00.000Z",
  };
}

function result(text: string, remaining: number): SendMessageResult {
  return {
    response: text,
    conversationId: "c1",
    userMessage: message("m1", "user", "Hello"),
    aiMessage: message("m2", "ai", text),
    remaining,
  };
}

function sse(events: [string, unknown][]): Response {
  const text = events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  return new Response(text.join(""), { headers: { "content-type": "text/event-stream" } });
}

async function openTrial() {
  renderApp("/");
  fireEvent.click(await screen.findByTestId("trial-start"));
  const chat = await screen.findByTestId("trial-chat");
  await within(chat).findByText("3 free messages left without an account");
  return chat;
}

describe("the anonymous trial chat", () => {
  it("streams the persona's reply and counts down what is left", async () => {
    const api = mockApi(
      [
        on(routes.trial.state, {
          success: true,
          data: { allowance: 3, remaining: 3, messages: [] },
        }),
        on(routes.trial.message, () =>
          sse([
            ["token", { text: "Hi " }],
            ["token", { text: "there" }],
            ["done", result("Hi there", 2)],
          ]),
        ),
      ],
      { settings },
    );
    const chat = await openTrial();
    await userEvent.type(within(chat).getByRole("textbox"), "Hello{Enter}");

    await within(chat).findByText("2 free messages left without an account");
    expect(within(chat).getAllByTestId("ai-message").at(-1)).toHaveTextContent("Hi there");
    const [sent] = api.callsTo(routes.trial.message);
    expect(sent?.body).toEqual({ message: "Hello" });
    expect(sent?.headers.get("accept")).toBe("text/event-stream");
    // No account: no Bearer token goes with the trial.
    expect(sent?.headers.get("authorization")).toBeNull();
  });

  it("shows the server's refusal and offers the sign-up when the device used its messages", async () => {
    mockApi(
      [
        on(routes.trial.state, {
          success: true,
          data: { allowance: 3, remaining: 3, messages: [] },
        }),
        on(routes.trial.message, () =>
          reply({ success: false, message: TRIAL_MESSAGES.used, code: TRIAL_CODES.used }, 403),
        ),
      ],
      { settings },
    );
    const chat = await openTrial();
    await userEvent.type(within(chat).getByRole("textbox"), "Hello{Enter}");

    await within(chat).findByText(TRIAL_MESSAGES.used);
    expect(within(chat).getByRole("button", { name: "Sign up to keep chatting" })).toBeVisible();
    await waitFor(() =>
      expect(within(chat).getByTestId("user-message")).toHaveAttribute("data-state", "failed"),
    );
  });
});
