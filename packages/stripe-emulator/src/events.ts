import type { EmulatorDeps } from "./deps.ts";
import type { Json } from "./json.ts";

/** An event as Stripe would send it (tests and the sandbox sign it themselves). */
export function makeEvent(deps: EmulatorDeps, type: string, object: Json): Json {
  return {
    id: deps.newId("evt"),
    object: "event",
    api_version: "2026-10-28.endive",
    type,
    created: deps.clock.now(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}
