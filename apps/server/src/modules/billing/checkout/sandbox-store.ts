import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { sandboxObjects } from "../../../db/schema/index.ts";
import type { SandboxStore } from "../../../providers/payments/index.ts";

/** The sandbox provider's objects, in the database (every instance sees the same state). */
export function createSandboxStore(db: Database): SandboxStore {
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
  };
}
