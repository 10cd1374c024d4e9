import type { EmulatorDeps } from "./deps.ts";
import type { Json } from "./json.ts";
import { StripeObjects } from "./store.ts";

/**
 * Stripe's Idempotency-Key: the first answer under `recordId` is kept (an object of its own), and
 * a retry gets it again without `work` running twice. No key (`recordId` null): `work` runs.
 */
export async function idempotent(
  deps: EmulatorDeps,
  recordId: string | null,
  work: () => Promise<Json>,
): Promise<Json> {
  if (recordId) {
    const earlier = await deps.store.get(recordId);
    if (earlier) return earlier.response as Json;
  }
  const response = await work();
  if (recordId) {
    await deps.store.create(recordId, StripeObjects.idempotency, {
      id: recordId,
      object: StripeObjects.idempotency,
      response,
    });
  }
  return response;
}
