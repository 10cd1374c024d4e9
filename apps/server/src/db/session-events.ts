import type { Database, DatabaseConnection } from "./client.ts";

/**
 * A session's end, as the live call hears of it (docs/decisions/0041-calls-end-with-their-account.md):
 * every token of an account (password change or reset, deactivation) or one token (logout).
 * On PostgreSQL the migration's triggers NOTIFY `session_ended` at commit; PGlite has one process,
 * whose writes announce it here. Either way it is a hint: the listener checks the token again.
 */
export type SessionEnd = { userId: string } | { jti: string };

export const SESSION_ENDED_CHANNEL = "session_ended";

const listeners = new WeakMap<Database, Set<(end: SessionEnd) => void>>();

/** Tells this process's listeners on `db` that a session ended (after the write). */
export function announceSessionEnded(db: Database, end: SessionEnd): void {
  for (const listener of listeners.get(db) ?? []) listener(end);
}

function parse(payload: string | undefined): SessionEnd | undefined {
  const [kind, id] = (payload ?? "").split(":");
  if (!id) return undefined;
  if (kind === "user") return { userId: id };
  if (kind === "token") return { jti: id };
  return undefined;
}

/**
 * Hears every session end on the database: this process's writes, and on PostgreSQL every
 * instance's (the one LISTEN connection, decision 0015). `onGap`: some may have gone unheard.
 */
export async function watchSessionEnds(options: {
  connection: DatabaseConnection;
  onEnd(end: SessionEnd): void;
  onGap(): void;
}): Promise<() => Promise<void>> {
  const { connection, onEnd, onGap } = options;
  let set = listeners.get(connection.db);
  if (!set) {
    set = new Set();
    listeners.set(connection.db, set);
  }
  const local = set;
  local.add(onEnd);
  if (connection.kind === "pglite") return async () => void local.delete(onEnd);
  try {
    const hub = await connection.notifications();
    const unsubscribe = await hub.subscribe(SESSION_ENDED_CHANNEL, {
      onNotify: (payload) => {
        const end = parse(payload);
        if (end) onEnd(end);
      },
      onGap,
    });
    return async () => {
      local.delete(onEnd);
      await unsubscribe();
    };
  } catch (error) {
    local.delete(onEnd);
    throw error;
  }
}
