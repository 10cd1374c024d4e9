import { sql } from "drizzle-orm";
import { createNotifyCache, startWatched } from "../../db/cached-by-notify.ts";
import type { Database, DatabaseConnection } from "../../db/client.ts";
import { isSqlTrue } from "../../db/raw-rows.ts";
import { AI_TRAINING_CHANGED_CHANNEL } from "./changes.ts";
import { findRelevantPassages } from "./retrieval.ts";

/** What a chat send needs of the AI training, read in one query and kept in memory. */
export interface PersonaSnapshot {
  /** The admin's system prompt ("" before any save). */
  readonly systemPrompt: string;
  /** Whether any knowledge passage exists: without one, retrieval is not asked. */
  readonly hasPassages: boolean;
}

/** The persona as the chat reads it (chat/service.ts PersonaSource fits it). */
export interface CachedPersona {
  systemPrompt(): Promise<string>;
  /** The best passages for a question, best first; no query at all while there are none. */
  passages(question: string, limit: number): Promise<string[]>;
  /** The snapshot, from memory when there is a trustworthy one. */
  snapshot(): Promise<PersonaSnapshot>;
  /** Forgets the cached copy: the AI training changed (here or on another instance). */
  invalidate(): void;
}

export interface CachedPersonaOptions {
  db: Database;
  /**
   * Whether a cached copy can be trusted now. On PostgreSQL it is false while the LISTEN
   * connection is down (a change could go unheard), and every call reads the database meanwhile.
   */
  cacheIsTrustworthy?: () => boolean;
  /** The knowledge retrieval; default the full-text search of retrieval.ts. */
  retrieve?: (question: string, limit: number) => Promise<string[]>;
}

/** The system prompt and whether any passage exists, in one statement (no row: the defaults). */
export async function readPersonaSnapshot(db: Database): Promise<PersonaSnapshot> {
  const result = (await db.execute(sql`
    select (select system_prompt from ai_training limit 1) as system_prompt,
      exists (select 1 from knowledge_passages) as has_passages
  `)) as unknown as { rows: { system_prompt: string | null; has_passages: boolean | string }[] };
  const row = result.rows[0];
  return {
    systemPrompt: row?.system_prompt ?? "",
    hasPassages: isSqlTrue(row?.has_passages),
  };
}

/**
 * The persona's training, cached in this process like the settings
 * (docs/decisions/0002-settings-cache.md, 0012-persona-cache.md): filled by the first send,
 * dropped by every AI training write (the shared cache of db/cached-by-notify.ts).
 */
export function createCachedPersona(options: CachedPersonaOptions): CachedPersona {
  const { db } = options;
  const cacheIsTrustworthy = options.cacheIsTrustworthy ?? (() => true);
  const retrieve =
    options.retrieve ??
    (async (question: string, limit: number) =>
      (await findRelevantPassages(db, question, limit)).map((passage) => passage.content));
  const cache = createNotifyCache(() => readPersonaSnapshot(db), cacheIsTrustworthy);
  const snapshot = () => cache.get();

  return {
    snapshot,
    async systemPrompt() {
      return (await snapshot()).systemPrompt;
    },
    async passages(question, limit) {
      if (!(await snapshot()).hasPassages) return [];
      return retrieve(question, limit);
    },
    invalidate: () => cache.invalidate(),
  };
}

/**
 * The chat's persona over an open database, kept fresh: this process's AI training writes drop
 * it at once; on PostgreSQL a LISTEN on `ai_training_changed` (the connection's shared one) drops
 * it when another instance writes, and while that connection is down the cache is bypassed.
 * PGlite has one process by construction, so the in-process announcement is enough.
 */
export async function startCachedPersona(
  connection: DatabaseConnection,
): Promise<{ persona: CachedPersona; close(): Promise<void> }> {
  const { made: persona, close } = await startWatched({
    connection,
    channel: AI_TRAINING_CHANGED_CHANNEL,
    make: (cacheIsTrustworthy) => createCachedPersona({ db: connection.db, cacheIsTrustworthy }),
    onChange: (made) => made.invalidate(),
  });
  return { persona, close };
}
