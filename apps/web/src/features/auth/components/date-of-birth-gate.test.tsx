import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { AGE_MESSAGES, routes } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { on } from "@/test/api-mock";
import { jsonResponse, makeUser, mockAuthApi, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";

const EMPTY_PAGE = {
  success: true as const,
  data: { messages: [], pagination: { total: 0, page: 1, limit: 20, pages: 1 } },
};
const USAGE = {
  success: true as const,
  data: { total: 0, sentToday: 0, dailyLimit: 5, remaining: 5 },
};

function olderAccountApi(putAnswer: () => Response) {
  const older = makeUser({ dateOfBirth: null });
  storeSession(older);
  return mockAuthApi([
    on(routes.auth.me, { success: true, data: older }),
    on(routes.chat.messages, EMPTY_PAGE),
    on(routes.chat.usage, USAGE),
    on(routes.account.dateOfBirth, putAnswer),
  ]);
}

describe("the date of birth of an account made before sign-up asked", () => {
  it("is asked in a dialog before the chat, once, then the chat opens", async () => {
    const { callsTo } = olderAccountApi(() =>
      jsonResponse({ success: true, user: makeUser({ dateOfBirth: "1990-05-17" }) }),
    );
    renderApp("/dashboard/chat");
    const dialog = await screen.findByTestId("date-of-birth-gate");
    expect(dialog).toHaveTextContent(AGE_MESSAGES.askedBeforeUse);
    expect(screen.queryByRole("textbox", { name: /^Message / })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText("Date of birth"), "1990-05-17");
    await user.click(within(dialog).getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(screen.queryByTestId("date-of-birth-gate")).not.toBeInTheDocument());
    expect(callsTo(routes.account.dateOfBirth)[0]?.body).toEqual({
      dateOfBirth: "1990-05-17",
    });
    expect(await screen.findByRole("textbox", { name: /^Message / })).toBeInTheDocument();
  });

  it("shows the server's refusal under the minimum age, and stays", async () => {
    olderAccountApi(() =>
      jsonResponse({ success: false, message: AGE_MESSAGES.underAgeToUse(18) }, 403),
    );
    renderApp("/dashboard/call");
    const dialog = await screen.findByTestId("date-of-birth-gate");
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText("Date of birth"), "2014-03-01");
    await user.click(within(dialog).getByRole("button", { name: "Continue" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      AGE_MESSAGES.underAgeToUse(18),
    );
  });
});
