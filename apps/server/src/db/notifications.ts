import pg from "pg";

export interface NotificationListener {
  /** True while the LISTEN connection is up; while false, a notification may be missed. */
  readonly connected: boolean;
  close(): Promise<void>;
}

export interface ListenOptions {
  connectionString: string;
  channel: string;
  /** A NOTIFY arrived on the channel. */
  onNotify(payload: string | undefined): void;
  /**
   * The connection was lost or (re)established: notifications may have been missed meanwhile,
   * so whatever they guard must be treated as stale.
   */
  onGap(): void;
  onError(error: Error): void;
  /** Wait before reconnecting after a lost connection. */
  retryDelayMs?: number;
}

/**
 * LISTEN on one PostgreSQL channel over a dedicated connection (a pooled one would be handed to
 * other queries), reconnecting for as long as it is open.
 */
export async function listenForNotifications(
  options: ListenOptions,
): Promise<NotificationListener> {
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  if (!/^[a-z_][a-z0-9_]*$/.test(options.channel)) {
    throw new Error(`Invalid channel name ${options.channel}`);
  }
  let client: pg.Client | undefined;
  let connected = false;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: options.connectionString });
    next.on("notification", (message) => {
      if (message.channel === options.channel) options.onNotify(message.payload);
    });
    next.on("error", (error) => {
      options.onError(error);
      lost(next);
    });
    next.on("end", () => lost(next));
    client = next;
    await next.connect();
    await next.query(`LISTEN ${options.channel}`);
    if (closed) {
      await next.end();
      return;
    }
    connected = true;
    options.onGap();
  };

  const lost = (which: pg.Client) => {
    if (which !== client || closed) return;
    connected = false;
    client = undefined;
    options.onGap();
    which.end().catch(() => {});
    scheduleRetry();
  };

  const scheduleRetry = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().catch((error: Error) => {
        options.onError(error);
        if (client) lost(client);
        else scheduleRetry();
      });
    }, retryDelayMs);
    retryTimer.unref();
  };

  await connect();

  return {
    get connected() {
      return connected;
    },
    async close() {
      closed = true;
      connected = false;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
