import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_EVENTS } from "../src/modules/billing/fulfilment/fulfilment.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";
import { deliver, WEBHOOK_SECRET } from "./stripe-webhooks.ts";

// Ids PostgreSQL cannot store or compare (a lone surrogate, a NUL), or no id at all.
const MALFORMED_IDS = ["cs_\uD800", "cs_\uDC00x", "cs_\u0000", "in_a\uD83D", 42, ""];

// Every event the webhook is subscribed to.
const EVENT_TYPES = WEBHOOK_EVENTS;

describe("malformed provider ids in signed webhooks", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET } });
  });
  afterAll(() => t?.close());

  it("answers 400, never 500, for every event kind and every malformed id, every time", async () => {
    for (const type of EVENT_TYPES) {
      for (const id of MALFORMED_IDS) {
        const objectEvent = {
          id: "evt_fine_1",
          type,
          data: { object: { id, object: type.split(".")[0], customer: "cus_1", metadata: {} } },
        };
        const eventId = { ...objectEvent, id, data: { object: { id: "cs_fine" } } };
        for (const event of [objectEvent, eventId]) {
          for (let attempt = 0; attempt < 2; attempt++) {
            const answer = await deliver(t, event);
            expect(answer.statusCode, `${type} ${JSON.stringify(id)}: ${answer.body}`).toBe(400);
            expect(answer.json().success).toBe(false);
          }
        }
      }
    }
  });

  it("a lone surrogate in a nested provider id (customer, subscription) is refused too", async () => {
    const answer = await deliver(t, {
      id: "evt_fine_2",
      type: "invoice.paid",
      data: { object: { id: "in_fine", customer: "cus_\uD800", subscription: "sub_1" } },
    });
    expect(answer.statusCode, answer.body).toBe(400);
  });
});
