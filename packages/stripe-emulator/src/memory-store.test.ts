import { describe, expect, it } from "vitest";
import { createMemoryStore } from "./memory-store.ts";

describe("the memory store", () => {
  it("compares and sets: of two transitions from one state, one wins", async () => {
    const store = createMemoryStore();
    await store.put("cs_1", "checkout.session", {
      id: "cs_1",
      object: "checkout.session",
      status: "open",
    });

    const results = await Promise.all([
      store.transition("cs_1", "open", {
        id: "cs_1",
        object: "checkout.session",
        status: "complete",
      }),
      store.transition("cs_1", "open", {
        id: "cs_1",
        object: "checkout.session",
        status: "expired",
      }),
    ]);

    expect(results).toEqual([true, false]);
    expect(await store.get("cs_1")).toMatchObject({ status: "complete" });
  });

  it("creates only a new id, and keeps an object a test holds live", async () => {
    const store = createMemoryStore();
    expect(
      await store.create("cus_1", "customer", { id: "cus_1", object: "customer", balance: 0 }),
    ).toBe(true);
    expect(
      await store.create("cus_1", "customer", { id: "cus_1", object: "customer", balance: 5 }),
    ).toBe(false);
    const held = store.objects("customer").get("cus_1");

    await store.put("cus_1", "customer", { id: "cus_1", object: "customer", balance: -250 });

    expect(held).toMatchObject({ balance: -250 });
    expect(await store.list("customer")).toEqual([
      { id: "cus_1", object: "customer", balance: -250 },
    ]);
  });
});
