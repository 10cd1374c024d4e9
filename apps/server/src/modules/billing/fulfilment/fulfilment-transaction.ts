import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../../db/client.ts";
import { processedWebhookEvents, users } from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { isUuid } from "../../../lib/search.ts";
import type { PaymentEvent, PaymentsProvider } from "../../../providers/payments/index.ts";
import type { EventContext, EventEffects, FulfilmentProbe } from "./event-context.ts";

export interface FulfilmentOptions {
  db: Database;
  payments: () => Promise<PaymentsProvider>;
  log: FastifyBaseLogger;
  /** THE billing clock: the times the events' writes stamp (the sweeps and screens read them). */
  clock: Clock;
  /**
   * Called after an event's transaction committed when it found a second subscription of a
   * user (decision 0051): the refunds service ends it and refunds its payment.
   */
  onDuplicateSubscription?: (userId: string) => Promise<void>;
  /** Called after every event's transaction committed: it may have queued e-mail to send. */
  afterCommit?: () => void;
}

/** What fulfilment's use cases share: the options and the instance's test probe. */
export interface FulfilmentDeps extends FulfilmentOptions {
  state: { probe: FulfilmentProbe | null };
}

export interface HandledEvent {
  /** The event id was handled before: nothing changed. */
  duplicate: boolean;
}

export type Apply<T> = (context: EventContext) => Promise<T>;

/**
 * Runs `apply` in one transaction with the user's row locked first: every write about one
 * user is applied one at a time, in one lock order (two parallel plan payments cannot both
 * see "no subscription", nor deadlock). Second subscriptions it found are refunded after the
 * commit.
 */
export async function transact<T>(
  deps: FulfilmentDeps,
  provider: PaymentsProvider,
  userId: string | null | undefined,
  apply: Apply<T>,
): Promise<T> {
  const { db, log, state } = deps;
  const probe = async (step: Parameters<FulfilmentProbe>[0]) => {
    if (state.probe) await state.probe(step);
  };
  const effects: EventEffects = { duplicateOf: new Set() };
  const result = await db.transaction(async (tx) => {
    if (userId && isUuid(userId)) {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    }
    const now = () => new Date(deps.clock.now());
    return apply({ tx, now, provider, log, probe, effects });
  });
  deps.afterCommit?.();
  for (const duplicateOf of effects.duplicateOf) {
    // The claim is committed: a failure here is settled later by the refunds sweep.
    await deps.onDuplicateSubscription?.(duplicateOf).catch((error: unknown) => {
      log.error({ err: error, userId: duplicateOf }, "Refund of a second subscription failed");
    });
  }
  return result;
}

/** Runs `apply` with the event id recorded in the same transaction; a known id: nothing. */
export const once = (
  deps: FulfilmentDeps,
  event: PaymentEvent,
  provider: PaymentsProvider,
  apply: Apply<void>,
  userId?: string | null,
): Promise<HandledEvent> =>
  transact(deps, provider, userId, async (context) => {
    const recorded = await context.tx
      .insert(processedWebhookEvents)
      .values({ eventId: event.id, type: event.type })
      .onConflictDoNothing({ target: processedWebhookEvents.eventId })
      .returning({ eventId: processedWebhookEvents.eventId });
    if (recorded.length === 0) return { duplicate: true };
    await context.probe("event-recorded");
    await apply(context);
    return { duplicate: false };
  });

export async function alreadyHandled(db: Database, eventId: string) {
  const [row] = await db
    .select({ eventId: processedWebhookEvents.eventId })
    .from(processedWebhookEvents)
    .where(eq(processedWebhookEvents.eventId, eventId));
  return Boolean(row);
}
