import type { Database } from "../../db/client.ts";
import { bindFirst } from "../../lib/bind-first.ts";
import { deleteSummary, forget, setEnabled, view } from "./repository/memory-screen.ts";
import { recall } from "./repository/recall.ts";
import { saveSummary, summaryDue, summaryInput } from "./repository/summary.ts";

export {
  FACTS_LIMIT,
  type MemoryView,
  type RememberedRow,
} from "./repository/memory-screen.ts";
export { CANDIDATES_PER_WORD, COMMON_WORD_SHARE, type Recall } from "./repository/recall.ts";

/**
 * The fan's long-term memory: its queries, one file per use case under repository/ (each
 * documented there), bound to `db`.
 */
export function createMemoryRepository(db: Database) {
  return bindFirst(db, {
    // What a reply recalls (repository/recall.ts).
    recall,
    // The fan's memory screen (repository/memory-screen.ts).
    view,
    setEnabled,
    deleteSummary,
    forget,
    // The running summary (repository/summary.ts).
    summaryDue,
    summaryInput,
    saveSummary,
  });
}

export type MemoryRepository = ReturnType<typeof createMemoryRepository>;
