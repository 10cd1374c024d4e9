import type { EmulatorDeps } from "./deps.ts";
import { StripeObjects } from "./store.ts";

/** The next number of a sequence (1, 2, ...), unique across instances sharing the store. */
export async function nextNumber(deps: EmulatorDeps, sequence: string): Promise<number> {
  const id = `counter_${sequence}`;
  for (;;) {
    await deps.store.create(id, StripeObjects.counter, {
      id,
      object: StripeObjects.counter,
      value: 0,
    });
    const counter = await deps.store.get(id);
    const value = Number(counter?.value ?? 0);
    const next = { id, object: StripeObjects.counter, value: value + 1 };
    if (await deps.store.transition(id, String(value), next, "value")) return value + 1;
  }
}
