import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { CONSENT_VERSIONS, routes } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { ApiError, NetworkError } from "@/lib/api-client";
import { on } from "@/test/api-mock";
import { jsonResponse, mockAuthApi } from "@/test/auth";
import { renderApp } from "@/test/render";
import { checkoutErrorMessage, redirectTo } from "../api/billing";
import {
  activeSubscription,
  historyAnswer,
  noSubscription,
  pkg,
  session,
  subscriptionAnswer,
  transaction,
} from "../test/fixtures";
import { meRoute, setUpBillingTests } from "../test/setup";

setUpBillingTests();

const base = [
  on(routes.billing.creditBalance, { success: true, available: 250 }),
  on(routes.billing.mySubscription, subscriptionAnswer(noSubscription)),
  on(routes.billing.paymentHistory, historyAnswer([])),
  meRoute,
];
const packagesAnswer = (list: ReturnType<typeof pkg>[]) => ({
  success: true as const,
  data: list,
  packages: list,
});

describe("/dashboard/credits", () => {
  it("shows the balance, the subscription and the active packages sorted by credits", async () => {
    mockAuthApi([
      on(
        routes.billing.packages,
        packagesAnswer([
          pkg({
            _id: "big",
            name: "Big",
            credits: 1000,
            price: 80,
            discount: 25,
            discountedPrice: 60,
          }),
          pkg({ _id: "hidden", name: "Hidden", credits: 50, isActive: false }),
          pkg({ _id: "small", name: "Small", credits: 100, price: 10, discountedPrice: 10 }),
        ]),
      ),
      ...base,
    ]);
    renderApp("/dashboard/credits");
    expect(await screen.findByTestId("credit-balance")).toHaveTextContent("250");
    expect(await screen.findByTestId("subscription-summary")).toHaveTextContent("Free");
    const cards = await screen.findAllByTestId("credit-package");
    expect(cards.map((c) => within(c).getByRole("heading").textContent)).toEqual(["Small", "Big"]);
    // Estimated minutes = credits / 5; discounted price = price x (1 - discount/100).
    expect(cards[0]).toHaveTextContent("≈ 20 minutes");
    expect(cards[1]).toHaveTextContent("≈ 200 minutes");
    expect(cards[1]).toHaveTextContent("25% off");
    expect(cards[1]).toHaveTextContent("$60.00");
    expect(within(cards[1] as HTMLElement).getByText("$80.00").tagName).toBe("S");
    expect(cards[0]).not.toHaveTextContent("% off");
    expect(screen.getAllByText(/Credits never expire/).length).toBeGreaterThan(0);
    expect(screen.getByText("No credit purchases yet.")).toBeInTheDocument();
  });

  it("shows skeletons while loading, then the empty text when there are no packages", async () => {
    let answer: (r: Response) => void = () => {};
    mockAuthApi([
      on(
        routes.billing.packages,
        () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      ),
      ...base,
    ]);
    renderApp("/dashboard/credits");
    expect(await screen.findByTestId("packages-loading")).toBeInTheDocument();
    answer(jsonResponse(packagesAnswer([])));
    expect(
      await screen.findByText("No credit packages are available right now."),
    ).toBeInTheDocument();
  });

  it("says Failed to load credit packages, balance and history, and retries", async () => {
    const { callsTo } = mockAuthApi([
      on(routes.billing.creditBalance, () => jsonResponse({ success: false, message: "x" }, 500)),
      on(routes.billing.paymentHistory, () => jsonResponse({ success: false, message: "x" }, 500)),
      on(routes.billing.packages, () => jsonResponse({ success: false, message: "x" }, 500)),
      ...base,
    ]);
    renderApp("/dashboard/credits");
    expect(await screen.findByText("Failed to load credit packages")).toBeInTheDocument();
    expect(await screen.findByText("Failed to load credit balance")).toBeInTheDocument();
    expect(await screen.findByText("Failed to load transaction history")).toBeInTheDocument();
    const before = callsTo(routes.billing.packages).length;
    await userEvent.click(screen.getAllByRole("button", { name: "Try again" })[0] as HTMLElement);
    await waitFor(() => expect(callsTo(routes.billing.packages).length).toBeGreaterThan(before));
  });

  it("refreshes the balance", async () => {
    let balance = 100;
    mockAuthApi([
      on(routes.billing.packages, packagesAnswer([])),
      on(routes.billing.creditBalance, () => jsonResponse({ success: true, available: balance })),
      ...base,
    ]);
    renderApp("/dashboard/credits");
    expect(await screen.findByTestId("credit-balance")).toHaveTextContent("100");
    balance = 350;
    await userEvent.click(screen.getByRole("button", { name: "Refresh balance" }));
    await waitFor(() => expect(screen.getByTestId("credit-balance")).toHaveTextContent("350"));
  });

  it("pages the payment history 5 at a time", async () => {
    const { fetchMock } = mockAuthApi([
      on(routes.billing.packages, packagesAnswer([])),
      on(
        routes.billing.paymentHistory,
        historyAnswer(
          [transaction({ metadata: { packageName: "Mega", invoiceNumber: null }, amount: 45.5 })],
          1,
          5,
          12,
        ),
      ),
      ...base,
    ]);
    renderApp("/dashboard/credits");
    const list = await screen.findByTestId("credits-transactions");
    expect(await within(list).findByText("Mega")).toBeInTheDocument();
    expect(within(list).getByText("$45.50")).toBeInTheDocument();
    expect(within(list).getByText("Success")).toBeInTheDocument();
    expect(within(list).getByText("Page 1 of 3")).toBeInTheDocument();
    await userEvent.click(within(list).getByRole("button", { name: /Next/ }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([url]) =>
          /\/api\/payments\/history\?page=2&limit=5/.test(String(url)),
        ),
      ).toBe(true),
    );
  });

  it("Buy starts the checkout of the package and goes to the answered url", async () => {
    const { callsTo } = mockAuthApi([
      on(routes.billing.packages, packagesAnswer([pkg({ _id: "p-9", name: "Starter" })])),
      on(routes.billing.packageCheckout, {
        success: true,
        url: "https://checkout.example/cs_1",
        sessionId: "cs_1",
      }),
      ...base,
    ]);
    renderApp("/dashboard/credits");
    await userEvent.click(await screen.findByRole("button", { name: "Buy Starter" }));
    // The delivery consent is asked first: the checkout waits for the ticked box.
    const dialog = await screen.findByRole("dialog", { name: "Buy Starter" });
    const box = within(dialog).getByRole("checkbox", { name: /delivered immediately/ });
    expect(box).not.toBeChecked();
    const go = within(dialog).getByRole("button", { name: "Continue to payment" });
    expect(go).toBeDisabled();
    await userEvent.click(go);
    expect(callsTo(routes.billing.packageCheckout)).toHaveLength(0);
    await userEvent.click(box);
    await userEvent.click(go);
    await waitFor(() =>
      expect(redirectTo.go).toHaveBeenCalledWith("https://checkout.example/cs_1"),
    );
    expect(callsTo(routes.billing.packageCheckout)[0]?.body).toEqual({
      packageId: "p-9",
      consentVersion: CONSENT_VERSIONS.credits,
    });
  });

  it("warns of a balance below one call minute", async () => {
    mockAuthApi([
      on(routes.billing.creditBalance, { success: true, available: 2 }),
      on(routes.billing.packages, packagesAnswer([pkg()])),
      ...base,
    ]);
    renderApp("/dashboard/credits");
    const warnings = await screen.findAllByTestId("low-balance");
    expect(warnings.map((w) => w.textContent)).toContain(
      "Low balance: You have 2 credits: a call minute costs 5.",
    );
  });

  it("toasts the checkout failure of the spec", async () => {
    mockAuthApi([
      on(routes.billing.packages, packagesAnswer([pkg()])),
      on(routes.billing.packageCheckout, () =>
        jsonResponse({ success: false, message: "This credit package is not available" }, 400),
      ),
      ...base,
    ]);
    renderApp("/dashboard/credits");
    await userEvent.click(await screen.findByRole("button", { name: "Buy Starter" }));
    const dialog = await screen.findByRole("dialog", { name: "Buy Starter" });
    await userEvent.click(within(dialog).getByRole("checkbox"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Continue to payment" }));
    expect(await screen.findByText("This credit package is not available")).toBeInTheDocument();
    expect(redirectTo.go).not.toHaveBeenCalled();
  });

  it.each([
    [new ApiError("x", { status: 404, body: {} }), "Package not found or endpoint not available"],
    [new ApiError("x", { status: 401, body: {} }), "Authentication error. Please log in again"],
    [new NetworkError(), "Network error. Please check your connection and try again"],
    [new ApiError("x", { status: 400, body: { message: "Nope" } }), "Nope"],
    [new ApiError("x", { status: 500, body: {} }), "Failed to initiate checkout"],
    [new Error("boom"), "Failed to initiate checkout"],
  ])("checkout error %#: %s", (error, message) => {
    expect(checkoutErrorMessage(error)).toBe(message);
  });

  it("opens the Subscription dialog from the subscription card", async () => {
    mockAuthApi([
      on(routes.billing.packages, packagesAnswer([])),
      on(routes.billing.mySubscription, subscriptionAnswer(activeSubscription())),
      on(routes.billing.activePlans, { success: true, data: [] }),
      ...base,
    ]);
    renderApp("/dashboard/credits");
    expect(await screen.findByTestId("subscription-summary")).toHaveTextContent("Basic");
    await userEvent.click(screen.getByRole("button", { name: "Manage Subscription" }));
    expect(await screen.findByRole("dialog", { name: "Manage Subscription" })).toBeInTheDocument();
  });
});

describe("checkout return", () => {
  it("after success, waits for the fulfilment, then shows it and the new balance", async () => {
    let fulfilled = false;
    let balance = 100;
    mockAuthApi([
      on(routes.billing.packages, packagesAnswer([])),
      on(routes.billing.creditBalance, () => jsonResponse({ success: true, available: balance })),
      on(routes.billing.checkoutSession, () =>
        jsonResponse({
          success: true,
          data: session(
            fulfilled
              ? { status: "complete", paymentStatus: "paid", fulfilled: true }
              : { status: "complete", paymentStatus: "paid" },
          ),
        }),
      ),
      ...base,
    ]);
    renderApp("/dashboard/credits?checkout=success&session_id=cs_test_1");
    expect(await screen.findByTestId("checkout-pending")).toHaveTextContent(
      "Confirming your payment",
    );
    expect(await screen.findByTestId("credit-balance")).toHaveTextContent("100");
    balance = 200;
    fulfilled = true;
    expect(await screen.findByTestId("checkout-success")).toHaveTextContent(
      "100 credits from Starter were added to your balance.",
    );
    await waitFor(() => expect(screen.getByTestId("credit-balance")).toHaveTextContent("200"));
  });

  it("after a cancel, says nothing was charged", async () => {
    mockAuthApi([on(routes.billing.packages, packagesAnswer([])), ...base]);
    renderApp("/dashboard/credits?checkout=canceled&session_id=cs_test_1");
    expect(await screen.findByTestId("checkout-cancelled")).toHaveTextContent(
      "Nothing was charged",
    );
  });

  it("a failed payment says so", async () => {
    mockAuthApi([
      on(routes.billing.packages, packagesAnswer([])),
      on(routes.billing.checkoutSession, {
        success: true,
        data: session({ status: "expired" }),
      }),
      ...base,
    ]);
    renderApp("/dashboard/credits?subscription=success&session_id=cs_test_1");
    expect(await screen.findByTestId("checkout-failed")).toHaveTextContent("Nothing was charged");
  });
});
