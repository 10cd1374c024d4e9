import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation } from "react-router";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useListParams } from "./use-list-params";

const querySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  sortBy: z.enum(["transactionDate", "amount", "name"]).default("transactionDate"),
  sortOrder: z.coerce
    .number()
    .int()
    .refine((v) => v === 1 || v === -1)
    .default(-1),
  status: z.enum(["all", "success", "failed"]).default("all"),
  search: z.string().trim().max(200).optional(),
});

function setup(initial: string) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[initial]}>{children}</MemoryRouter>
  );
  return renderHook(
    () => ({
      list: useListParams(querySchema, {
        firstSortOrder: (field) => (field === "name" ? 1 : -1),
      }),
      location: useLocation(),
    }),
    { wrapper },
  );
}

describe("useListParams", () => {
  it("reads the address through the contract schema, each bad value falling back alone", () => {
    const { result } = setup("/list?page=3&sortBy=bogus&sortOrder=1&status=failed&search=ann");
    expect(result.current.list.params).toEqual({
      page: 3,
      limit: 10,
      sortBy: "transactionDate",
      sortOrder: 1,
      status: "failed",
      search: "ann",
    });
  });

  it("keeps only values that differ from the defaults in the address", () => {
    const { result } = setup("/list");
    act(() => result.current.list.update({ page: 2, status: "all" }));
    expect(result.current.location.search).toBe("?page=2");
    act(() => result.current.list.filter({ status: "success" }));
    expect(result.current.location.search).toBe("?status=success");
    act(() => result.current.list.reset());
    expect(result.current.location.search).toBe("");
  });

  it("flips the same column and starts a new one in its first direction, on page 1", () => {
    const { result } = setup("/list?page=4");
    act(() => result.current.list.sort("transactionDate"));
    expect(result.current.list.params).toMatchObject({ sortOrder: 1, page: 1 });
    act(() => result.current.list.sort("name"));
    expect(result.current.list.params).toMatchObject({ sortBy: "name", sortOrder: 1 });
    act(() => result.current.list.sort("amount"));
    expect(result.current.list.params).toMatchObject({ sortBy: "amount", sortOrder: -1 });
  });
});
