import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENTS } from "./fulfilment.ts";

describe("the events the Stripe webhook needs", () => {
  it("are the ones the README tells the operator to subscribe the endpoint to", () => {
    const readme = readFileSync(new URL("../../../../../../README.md", import.meta.url), "utf8");
    const row = readme.split("\n").find((line) => line.includes("`STRIPE_WEBHOOK_SECRET` and"));
    const listed = /subscribed to (.*?);/.exec(row ?? "")?.[1] ?? "";
    const named = [...listed.matchAll(/`([a-z_.]+)`/g)].map((match) => match[1]);
    expect(new Set(named)).toEqual(new Set(WEBHOOK_EVENTS));
    expect(named).toHaveLength(WEBHOOK_EVENTS.length);
  });
});
