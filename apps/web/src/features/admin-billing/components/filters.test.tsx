import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  adminCreditTransactionsQuerySchema,
  adminSubscriptionHistoryQuerySchema,
} from "@twinline/contracts";
import { describe, expect, it, vi } from "vitest";
import { FiltersForm, PAYMENT_FILTERS } from "./filters";
import type { Option } from "./form-controls";

const STATUSES: Option[] = [
  { value: "all", label: "All" },
  { value: "active", label: "Active" },
];
const EVENT_TYPES: Option[] = [
  { value: "all", label: "All" },
  { value: "renewed", label: "Renewed" },
];

describe("FiltersForm", () => {
  it("sends the list's own filters: no eventType for a list without one, empty text as none", async () => {
    const filter = vi.fn();
    render(
      <FiltersForm
        list={{ params: { status: "all", userId: "ann" }, filter }}
        schema={adminCreditTransactionsQuerySchema}
        {...PAYMENT_FILTERS}
      />,
    );
    expect(screen.getByLabelText("User ID/Email")).toHaveValue("ann");
    expect(screen.queryByLabelText("Event Type")).toBeNull();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Status"), "failed");
    expect(filter).toHaveBeenLastCalledWith({
      userId: "ann",
      status: "failed",
      startDate: undefined,
      endDate: undefined,
    });
    await user.clear(screen.getByLabelText("User ID/Email"));
    await user.type(screen.getByLabelText("Start Date"), "2025-02-01");
    await user.click(screen.getByRole("button", { name: "Search" }));
    await waitFor(() =>
      expect(filter).toHaveBeenLastCalledWith({
        userId: undefined,
        status: "failed",
        startDate: "2025-02-01",
        endDate: undefined,
      }),
    );
  });

  it("sends the event type where the list has one, and keeps an end date before the start", async () => {
    const filter = vi.fn();
    render(
      <FiltersForm
        list={{ params: { status: "all", eventType: "all" }, filter }}
        schema={adminSubscriptionHistoryQuerySchema}
        textLabel="Search by email"
        statuses={STATUSES}
        eventTypes={EVENT_TYPES}
        submitLabel="Apply Filters"
      />,
    );
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Event Type"), "renewed");
    expect(filter).toHaveBeenLastCalledWith(
      expect.objectContaining({ eventType: "renewed", status: "all" }),
    );
    filter.mockClear();
    await user.type(screen.getByLabelText("Start Date"), "2025-02-10");
    await user.type(screen.getByLabelText("End Date"), "2025-02-01");
    await user.click(screen.getByRole("button", { name: "Apply Filters" }));
    expect(
      await screen.findByText("End date must be on or after the start date"),
    ).toBeInTheDocument();
    expect(filter).not.toHaveBeenCalled();
  });
});
