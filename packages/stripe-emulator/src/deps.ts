import type { EmulatorClock } from "./clock.ts";
import { notFound } from "./errors.ts";
import type { Json } from "./json.ts";
import type { EmulatorStore } from "./store.ts";

/** How a percentage off rounds a half minor unit (Stripe's rule is its own; tests flip it). */
export interface Rounding {
  percentHalf: "up" | "even";
}

/** What every use case of the emulator works with: the state, the clock, the rules. */
export interface EmulatorDeps {
  store: EmulatorStore;
  clock: EmulatorClock;
  rounding: Rounding;
}

/** The object named `object` (Stripe's object name) with this id, or Stripe's 404. */
export async function mustGet(deps: EmulatorDeps, id: string, object: string): Promise<Json> {
  const found = await deps.store.get(id);
  if (!found || found.object !== object) throw notFound(object, id);
  return found;
}

/** Writes a Stripe object under its own id and object name. */
export const save = (deps: EmulatorDeps, object: Json) =>
  deps.store.put(String(object.id), String(object.object), object);
