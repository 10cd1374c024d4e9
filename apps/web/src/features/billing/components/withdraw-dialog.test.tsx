import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { routes } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { on } from "@/test/api-mock";
import { jsonResponse, mockAuthApi, storeSession } from "@/test/auth";
import { renderApp } from "@/test/render";
import { historyAnswer, transaction } from "../test/fixtures";
import { meRoute, setUpBillingTests } from "../test/setup";

setUpBillingTests({ signedIn: false });

const today = new Date().toISOString();

const quote = {
  success: true,
  data: {
    paymentId: "t-new",
    kind: "credits",
    itemName: "Starter",
    refundAmount: 7,
    currency: "usd",
    creditsTakenBack: 70,
    creditsUsed: 30,
    endsPlan: false,
    deadline: new Date(Date.now() + 14 * 86_400_000).toISOString(),
  },
} as const;

const withdrawn = {
  success: true,
  message: "You have withdrawn from this purchase: the refund is on its way",
  data: {
    withdrawal: {
      _id: "r1",
      paymentId: "t-new",
      status: "succeeded",
      refundAmount: 7,
      currency: "usd",
      creditsTakenBack: 70,
      endsPlan: false,
      withdrawnAt: today,
    },
    balance: 0,
  },
} as const;

describe("Withdraw from a purchase", () => {
  it("shows Withdraw on the last 14 days' purchases only, then withdraws in two steps", async () => {
    storeSession();
    const { callsTo } = mockAuthApi([
      on(
        routes.billing.paymentHistory,
        historyAnswer(
          [
            transaction({ _id: "t-new", transactionDate: today }),
            transaction({ _id: "t-old", transactionDate: "2025-02-03T10:00:00.000Z" }),
            transaction({ _id: "t-done", transactionDate: today, withdrawnAt: today }),
          ],
          1,
          10,
        ),
      ),
      on(routes.billing.withdrawalQuote, quote),
      on(routes.billing.withdraw, withdrawn),
      meRoute,
    ]);
    renderApp("/dashboard/transactions");
    const list = await screen.findByTestId("credits-transactions");
    const buttons = await within(list).findAllByRole("button", { name: "Withdraw from Starter" });
    expect(buttons).toHaveLength(1);
    expect(within(list).getByText("Withdrawn")).toBeInTheDocument();

    await userEvent.click(buttons[0] as HTMLElement);
    const dialog = await screen.findByRole("dialog", { name: "Withdraw from a purchase" });
    expect(await within(dialog).findByText("$7.00")).toBeInTheDocument();
    expect(within(dialog).getByText("70")).toBeInTheDocument();
    // Step 1 asks nothing of the server but the quote.
    await userEvent.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    expect(callsTo(routes.billing.withdraw, { id: "t-new" })).toHaveLength(0);
    expect(within(dialog).getByRole("alert")).toHaveTextContent(
      "Confirm: withdraw from this purchase?",
    );
    // Step 2.
    await userEvent.click(within(dialog).getByRole("button", { name: "Confirm withdrawal" }));
    expect(await within(dialog).findByTestId("withdraw-done")).toHaveTextContent(
      "You have withdrawn from this purchase",
    );
    expect(callsTo(routes.billing.withdraw, { id: "t-new" })[0]?.body).toEqual({ confirm: true });
  });

  it("says why a purchase cannot be withdrawn from", async () => {
    storeSession();
    mockAuthApi([
      on(
        routes.billing.paymentHistory,
        historyAnswer([transaction({ transactionDate: today })], 1, 10),
      ),
      on(routes.billing.withdrawalQuote, () =>
        jsonResponse(
          {
            success: false,
            message: "Nothing of this purchase is left to give back: its credits are used",
          },
          409,
        ),
      ),
      meRoute,
    ]);
    renderApp("/dashboard/transactions");
    await userEvent.click(await screen.findByRole("button", { name: "Withdraw from Starter" }));
    const dialog = await screen.findByRole("dialog");
    await waitFor(() =>
      expect(dialog).toHaveTextContent(
        "Nothing of this purchase is left to give back: its credits are used",
      ),
    );
    expect(within(dialog).queryByRole("button", { name: "Confirm withdrawal" })).toBeNull();
  });
});
