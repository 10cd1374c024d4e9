import { sql } from "drizzle-orm";
import type { Database, DatabaseConnection } from "./client.ts";
import type { NotificationHub } from "./notifications.ts";

/**
 * A value read from the database and kept in this process until a write announces a change
 * (docs/decisions/0002-settings-cache.md, 0012-persona-cache.md): each write NOTIFYs its channel
 * in its transaction and tells this process's listeners on the same database once it is over;
 * on PostgreSQL every instance LISTENs on the channel over a dedicated connection, and while
 * that connection is down the cache is bypassed.
 */

// In-process listeners, per open database and channel: every repository over the same database
// announces its writes to the same set.
const localListeners = new WeakMap<Database, Map<string, Set<() => void>>>();

/** Calls `listener` after every write on `channel` made in this process on `db`; answers the undo. */
export function onLocalChange(db: Database, channel: string, listener: () => void): () => void {
  let channels = localListeners.get(db);
  if (!channels) {
    channels = new Map();
    localListeners.set(db, channels);
  }
  let listeners = channels.get(channel);
  if (!listeners) {
    listeners = new Set();
    channels.set(channel, listeners);
  }
  const set = listeners;
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells this process's listeners on `db` that what `channel` guards may have changed. */
export function announceLocalChange(db: Database, channel: string): void {
  for (const listener of localListeners.get(db)?.get(channel) ?? []) listener();
}

/**
 * A write of another cached value to make in the same transaction as a `writeAndNotify` (the
 * admin's settings and provider keys are saved together: all or nothing).
 */
export interface NotifyingStep {
  /** The channel of what `run` changes. */
  channel: string;
  run(tx: Database): Promise<void>;
}

/**
 * `work` in a transaction that also runs `pg_notify(channel)` (delivered at commit to every
 * session that LISTENs); this process's listeners hear of it afterwards, even if it failed (an
 * unknown outcome must not leave a stale copy). `alongside` steps run first, in the same
 * transaction, and their channels are notified and announced the same way.
 */
export async function writeAndNotify<T>(
  db: Database,
  channel: string,
  work: (tx: Database) => Promise<T>,
  alongside: readonly NotifyingStep[] = [],
): Promise<T> {
  const channels = [...new Set([channel, ...alongside.map((step) => step.channel)])];
  try {
    return await db.transaction(async (tx) => {
      for (const step of alongside) await step.run(tx);
      const result = await work(tx);
      for (const name of channels) await tx.execute(sql`select pg_notify(${name}, '')`);
      return result;
    });
  } finally {
    for (const name of channels) announceLocalChange(db, name);
  }
}

export interface NotifyCache<T> {
  /** The value, from memory when there is a trustworthy copy, else read (one load). */
  get(): Promise<T>;
  /** The settled cached value when it can be trusted now, without waiting. */
  peek(): T | undefined;
  /** Caches a value known to be current (this process just wrote it), if the cache is trusted. */
  set(value: T): void;
  /** Forgets the cached copy: the data changed (here or on another instance). */
  invalidate(): void;
}

/**
 * One cached load. A generation counter stops a load that started before an invalidation from
 * refilling the cache with the old value; a failed load is not cached. While
 * `cacheIsTrustworthy()` is false every `get` loads.
 */
export function createNotifyCache<T>(
  load: () => Promise<T>,
  cacheIsTrustworthy: () => boolean = () => true,
): NotifyCache<T> {
  let cached: Promise<T> | undefined;
  // The settled value of `cached`, once there is one.
  let ready: { value: T } | undefined;
  let generation = 0;

  return {
    get() {
      if (!cacheIsTrustworthy()) return load();
      if (cached) return cached;
      const startedAt = generation;
      const loading = load();
      cached = loading;
      loading.then(
        (value) => {
          if (cached !== loading) return;
          if (generation !== startedAt) cached = undefined;
          else ready = { value };
        },
        () => {
          if (cached === loading) cached = undefined;
        },
      );
      return loading;
    },
    peek: () => (cacheIsTrustworthy() ? ready?.value : undefined),
    set(value) {
      generation++;
      cached = undefined;
      ready = undefined;
      if (!cacheIsTrustworthy()) return;
      cached = Promise.resolve(value);
      ready = { value };
    },
    invalidate() {
      generation++;
      cached = undefined;
      ready = undefined;
    },
  };
}

export interface ChangeWatch {
  /** False on PostgreSQL while the LISTEN connection is down (a change could go unheard). */
  readonly trustworthy: boolean;
  close(): Promise<void>;
}

/**
 * Calls `onChange` after every write on `channel`: this process's at once (by the local
 * announcement), on PostgreSQL also the other instances' (the connection's LISTEN, whose gaps
 * count as a change). PGlite has one process by construction.
 */
export async function watchChanges(options: {
  connection: DatabaseConnection;
  channel: string;
  onChange(): void;
}): Promise<ChangeWatch> {
  const { connection, channel, onChange } = options;
  const stopLocal = onLocalChange(connection.db, channel, onChange);
  if (connection.kind === "pglite") {
    return { trustworthy: true, close: async () => stopLocal() };
  }
  let hub: NotificationHub;
  let unsubscribe: () => Promise<void>;
  try {
    hub = await connection.notifications();
    unsubscribe = await hub.subscribe(channel, { onNotify: onChange, onGap: onChange });
  } catch (error) {
    stopLocal();
    throw error;
  }
  return {
    get trustworthy() {
      return hub.connected;
    },
    async close() {
      stopLocal();
      await unsubscribe();
    },
  };
}

/**
 * Makes what a watch on `channel` keeps fresh, then starts the watch: `make` is given whether
 * every change is heard of (false until the watch runs, then its `trustworthy`), and `onChange`
 * is called with what it made after each change. The caches and the push service's memory of
 * fans without a device are each made so.
 */
export async function startWatched<T>(options: {
  connection: DatabaseConnection;
  channel: string;
  make(trustworthy: () => boolean): T;
  onChange(made: T): void;
}): Promise<{ made: T; close(): Promise<void> }> {
  let watch: ChangeWatch | undefined;
  const made = options.make(() => watch?.trustworthy === true);
  watch = await watchChanges({
    connection: options.connection,
    channel: options.channel,
    onChange: () => options.onChange(made),
  });
  const started = watch;
  return { made, close: () => started.close() };
}

/** A `NotifyCache` of `load` over an open database, kept fresh by `watchChanges` on `channel`. */
export async function startNotifyCache<T>(options: {
  connection: DatabaseConnection;
  channel: string;
  load: () => Promise<T>;
}): Promise<{ cache: NotifyCache<T>; close(): Promise<void> }> {
  const { made: cache, close } = await startWatched({
    connection: options.connection,
    channel: options.channel,
    make: (trustworthy) => createNotifyCache(options.load, trustworthy),
    onChange: (made) => made.invalidate(),
  });
  return { cache, close };
}
