import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type PromotionCode, routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockAdminApi, signInAdmin } from "@/test/admin";
import { on } from "@/test/api-mock";
import { renderApp } from "@/test/render";

configure({ asyncUtilTimeout: 5000 });
// The first render loads a lazy bundle; a busy shared machine needs more than the default 5 s.
vi.setConfig({ testTimeout: 20_000 });
afterEach(() => {
  toast.remove();
  vi.restoreAllMocks();
});

function code(patch: Partial<PromotionCode> = {}): PromotionCode {
  return {
    _id: "11111111-1111-4111-8111-111111111111",
    code: "SPRING25",
    kind: "percent",
    percentOff: 25,
    amountOff: null,
    currency: null,
    appliesTo: "packages",
    maxRedemptions: 10,
    redemptions: 3,
    expiresAt: "2099-01-01T00:00:00.000Z",
    isActive: true,
    stripePromotionCodeId: null,
    createdAt: "2025-02-03T10:00:00.000Z",
    ...patch,
  };
}
const list = (rows: PromotionCode[]) => ({
  success: true as const,
  data: rows,
  pagination: { total: rows.length, page: 1, limit: 20, pages: 1 },
});

describe("/admin/promotion-codes", () => {
  it("lists the codes with their uses, creates one and disables one", async () => {
    signInAdmin();
    const api = mockAdminApi([
      on(routes.promotions.list, () =>
        list([
          code(),
          code({
            _id: "22222222-2222-4222-8222-222222222222",
            code: "FIVEOFF",
            kind: "amount",
            percentOff: null,
            amountOff: 5,
            currency: "eur",
            appliesTo: "both",
            maxRedemptions: null,
            redemptions: 0,
          }),
        ]),
      ),
      on(routes.promotions.create, ({ body }) => ({
        success: true as const,
        message: "Promotion code created",
        data: code({ code: String((body as { code: string }).code).toUpperCase() }),
      })),
      on(routes.promotions.setActive, () => ({
        success: true as const,
        message: "Promotion code disabled",
        data: code({ isActive: false }),
      })),
    ]);
    renderApp("/admin/promotion-codes");
    const table = await screen.findByRole("table", {}, { timeout: 15_000 });
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(3));
    const spring = within(table).getByRole("row", { name: /SPRING25/ });
    expect(spring).toHaveTextContent("25%");
    expect(spring).toHaveTextContent("3 / 10");
    expect(spring).toHaveTextContent("Credit packages");
    const five = within(table).getByRole("row", { name: /FIVEOFF/ });
    expect(five).toHaveTextContent("€5.00");
    expect(five).toHaveTextContent("Packages and plans");

    await userEvent.click(screen.getByRole("button", { name: "Add Promotion Code" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Promotion Code" });
    await userEvent.type(within(dialog).getByLabelText("Code"), "summer10");
    await userEvent.type(within(dialog).getByLabelText("Percent off"), "10");
    await userEvent.type(within(dialog).getByLabelText("Maximum redemptions"), "50");
    await userEvent.click(within(dialog).getByRole("button", { name: "Create Code" }));
    await screen.findByText("Promotion code created");
    const [posted] = api.callsTo(routes.promotions.create);
    expect(posted?.body).toMatchObject({
      code: "summer10",
      kind: "percent",
      percentOff: 10,
      amountOff: null,
      appliesTo: "both",
      maxRedemptions: 50,
    });

    await userEvent.click(screen.getByRole("button", { name: "Disable SPRING25" }));
    await screen.findByText("Promotion code disabled");
    const [patched] = api.callsTo(routes.promotions.setActive, {
      id: "11111111-1111-4111-8111-111111111111",
    });
    expect(patched?.body).toEqual({ isActive: false });
  });
});
