import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";

/**
 * The PostgreSQL channel on which every instance hears that the AI training changed (system
 * prompt, voice, knowledge documents): docs/decisions/0012-persona-cache.md.
 */
export const AI_TRAINING_CHANGED_CHANNEL = "ai_training_changed";

/** Run inside a write's transaction: delivered at commit to every session that LISTENs. */
export const notifyAiTrainingChangedSql = sql`select pg_notify(${AI_TRAINING_CHANGED_CHANNEL}, '')`;

// In-process listeners, per open database: every repository over the same database (the
// operator's routes, the chat's persona, a test's own) announces its writes to the same set.
const localListeners = new WeakMap<Database, Set<() => void>>();

/** Calls `listener` after every AI training write made in this process on `db`; answers the undo. */
export function onLocalAiTrainingChange(db: Database, listener: () => void): () => void {
  let listeners = localListeners.get(db);
  if (!listeners) {
    listeners = new Set();
    localListeners.set(db, listeners);
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells this process's listeners on `db` that the AI training may have changed. */
export function announceLocalAiTrainingChange(db: Database): void {
  for (const listener of localListeners.get(db) ?? []) listener();
}
