import type { EmulatorStore } from "@twinline/stripe-emulator";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { sandboxObjects } from "../../../db/schema/index.ts";

/**
 * The sandbox provider's objects, in the database (every instance sees the same state): the
 * Stripe emulator's store (decision 0094), so its compare-and-sets hold across instances.
 */
export function createSandboxStore(db: Database): EmulatorStore {
  return {
    async put(id, object, data) {
      await db
        .insert(sandboxObjects)
        .values({ id, object, data })
        .onConflictDoUpdate({ target: sandboxObjects.id, set: { data, updatedAt: sql`now()` } });
    },
    async create(id, object, data) {
      const inserted = await db
        .insert(sandboxObjects)
        .values({ id, object, data })
        .onConflictDoNothing({ target: sandboxObjects.id })
        .returning({ id: sandboxObjects.id });
      return inserted.length > 0;
    },
    async get(id) {
      const [row] = await db.select().from(sandboxObjects).where(eq(sandboxObjects.id, id));
      return row?.data ?? null;
    },
    async transition(id, from, data, field = "status") {
      const updated = await db
        .update(sandboxObjects)
        .set({ data, updatedAt: sql`now()` })
        .where(and(eq(sandboxObjects.id, id), sql`${sandboxObjects.data}->>${field} = ${from}`))
        .returning({ id: sandboxObjects.id });
      return updated.length > 0;
    },
    async list(object) {
      // By insertion: one transaction's objects share its now(), so created_at cannot order them.
      const rows = await db
        .select({ data: sandboxObjects.data })
        .from(sandboxObjects)
        .where(eq(sandboxObjects.object, object))
        .orderBy(asc(sandboxObjects.seq));
      return rows.map((row) => row.data);
    },
  };
}
