import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { createSandboxStore } from "./sandbox-store.ts";

/**
 * The sandbox's database store holds the Stripe emulator's objects (decision 0094): its list
 * answers one kind oldest first, by the order of writing, even for objects written in one
 * transaction (they share its now()) and whose ids sort the other way.
 */
describe("the sandbox's database store", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists one kind of object in the order written, a rewrite keeping its place", async () => {
    const ids = ["in_test_c", "in_test_b", "in_test_a"];
    await t.app.database.db.transaction(async (tx) => {
      const store = createSandboxStore(tx);
      for (const id of ids) await store.put(id, "invoice", { id, object: "invoice", total: 1 });
      await store.put("cus_test_1", "customer", { id: "cus_test_1", object: "customer" });
    });
    const store = createSandboxStore(t.app.database.db);
    await store.put("in_test_c", "invoice", { id: "in_test_c", object: "invoice", total: 2 });

    const invoices = await store.list("invoice");

    expect(invoices.filter((each) => String(each.id).startsWith("in_test_"))).toEqual([
      { id: "in_test_c", object: "invoice", total: 2 },
      { id: "in_test_b", object: "invoice", total: 1 },
      { id: "in_test_a", object: "invoice", total: 1 },
    ]);
    expect(await store.list("customer")).toContainEqual({ id: "cus_test_1", object: "customer" });
  });

  it("compares and sets on any field: of two writers from one version, one wins", async () => {
    const store = createSandboxStore(t.app.database.db);
    await store.put("sub_test_1", "subscription", { id: "sub_test_1", version: "0" });

    const results = await Promise.all([
      store.transition("sub_test_1", "0", { id: "sub_test_1", version: "1", by: "a" }, "version"),
      store.transition("sub_test_1", "0", { id: "sub_test_1", version: "1", by: "b" }, "version"),
    ]);

    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.create("sub_test_1", "subscription", { id: "sub_test_1" })).toBe(false);
  });
});
