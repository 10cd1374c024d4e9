import { onLocalChange } from "../../db/cached-by-notify.ts";
import type { Database } from "../../db/client.ts";

/**
 * The PostgreSQL channel on which every instance hears that the AI training changed (system
 * prompt, voice, knowledge documents): docs/decisions/0012-persona-cache.md.
 */
export const AI_TRAINING_CHANGED_CHANNEL = "ai_training_changed";

/** Calls `listener` after every AI training write made in this process on `db`; answers the undo. */
export function onLocalAiTrainingChange(db: Database, listener: () => void): () => void {
  return onLocalChange(db, AI_TRAINING_CHANGED_CHANNEL, listener);
}
