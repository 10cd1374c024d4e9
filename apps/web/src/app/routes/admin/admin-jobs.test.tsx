import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type AdminJob, type AdminJobsResponse, routes } from "@twinline/contracts";
import { describe, expect, it, vi } from "vitest";
import { mockAdminApi, signInAdmin } from "@/test/admin";
import { on } from "@/test/api-mock";
import { jsonResponse, renderApp } from "@/test/render";

configure({ asyncUtilTimeout: 5000 });
// The first render loads a lazy bundle; a busy shared machine needs more than the default 5 s.
vi.setConfig({ testTimeout: 20_000 });

const failed: AdminJob = {
  _id: "0b7d9a52-5b1c-4e49-9a9f-0a1b2c3d4e5f",
  queue: "billing.renewals",
  state: "failed",
  retryCount: 2,
  retryLimit: 2,
  createdAt: "2025-02-03T10:00:00.000Z",
  startedAt: "2025-02-03T10:00:01.000Z",
  completedAt: "2025-02-03T10:00:02.000Z",
  error: "card network down",
};

const page = (data: AdminJob[]): AdminJobsResponse => ({
  success: true,
  data,
  pagination: { total: data.length, page: 1, limit: 20, pages: data.length ? 1 : 0 },
  queues: [
    {
      queue: "billing.renewals",
      queued: 0,
      running: 0,
      failed: data.length,
      deadLettered: data.length,
    },
  ],
});

describe("the Jobs panel", () => {
  it("shows each queue's counts and a failed job's error; Retry queues it again", async () => {
    signInAdmin();
    let current: AdminJob = failed;
    const calls = mockAdminApi([
      on(routes.jobs.list, () => jsonResponse(page([current]))),
      on(routes.jobs.retry, () => {
        current = { ...failed, state: "retry", retryLimit: 3 };
        return jsonResponse({ success: true, message: "Job queued for a retry", data: current });
      }),
    ]);
    renderApp("/admin/jobs");
    const [queue] = await screen.findAllByTestId("queue-row", {}, { timeout: 15_000 });
    expect(queue?.textContent).toContain("billing.renewals");
    const [row] = await screen.findAllByTestId("job-row");
    if (!row) throw new Error("a job row expected");
    expect(within(row).getByTestId("job-error").textContent).toBe("card network down");
    expect(within(row).getByText("Failed")).toBeTruthy();
    expect(within(row).getByText("3 of 3")).toBeTruthy();

    await userEvent.setup().click(within(row).getByRole("button", { name: /Retry/ }));
    expect(await screen.findByText("Job queued for a retry")).toBeTruthy();
    expect(await screen.findByText("Waiting to retry")).toBeTruthy();
    expect(calls.callsTo(routes.jobs.retry, { id: failed._id })).toHaveLength(1);
    expect(screen.queryByRole("button", { name: /^Retry / })).toBeNull();
  });

  it("says so when there are no jobs, and offers a retry when the list cannot load", async () => {
    signInAdmin();
    let broken = true;
    mockAdminApi([
      on(routes.jobs.list, () =>
        broken
          ? jsonResponse({ success: false, message: "Internal Server Error" }, 500)
          : jsonResponse(page([])),
      ),
    ]);
    renderApp("/admin/jobs");
    expect(
      await screen.findByText("Failed to load the jobs", {}, { timeout: 15_000 }),
    ).toBeTruthy();
    broken = false;
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("No jobs found")).toBeTruthy();
  });
});
