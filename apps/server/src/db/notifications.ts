import pg from "pg";

/** What a subscriber of one channel hears. */
export interface ChannelHandlers {
  /** A NOTIFY arrived on the channel. */
  onNotify(payload: string | undefined): void;
  /**
   * Notifications may have been missed: the connection was lost or (re)established, or the
   * channel has only now begun to be heard. Whatever they guard must be treated as stale.
   */
  onGap(): void;
}

export interface NotificationHub {
  /** True while the LISTEN connection is up; while false, a notification may be missed. */
  readonly connected: boolean;
  /** Hears `channel` until the returned function is called (it answers with a gap at once). */
  subscribe(channel: string, handlers: ChannelHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface NotificationHubOptions {
  connectionString: string;
  /** The connection failed (it is retried meanwhile). */
  onError(error: Error): void;
  /** Wait before reconnecting after a lost connection. */
  retryDelayMs?: number;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * LISTEN on PostgreSQL channels over one dedicated connection per process (a pooled one would
 * be handed to other queries), shared by every channel's subscribers, reconnecting for as long
 * as it is open.
 */
export async function openNotificationHub(
  options: NotificationHubOptions,
): Promise<NotificationHub> {
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const subscribers = new Map<string, Set<ChannelHandlers>>();
  let client: pg.Client | undefined;
  /** The channels the current client LISTENs on. */
  let listening = new Set<string>();
  let connected = false;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const gapEverywhere = () => {
    for (const handlers of subscribers.values()) for (const handler of handlers) handler.onGap();
  };

  const listen = async (to: pg.Client, channel: string) => {
    if (listening.has(channel)) return;
    listening.add(channel);
    await to.query(`LISTEN ${channel}`);
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: options.connectionString });
    next.on("notification", (message) => {
      for (const handler of subscribers.get(message.channel) ?? []) {
        handler.onNotify(message.payload);
      }
    });
    next.on("error", (error) => {
      options.onError(error);
      lost(next);
    });
    next.on("end", () => lost(next));
    client = next;
    listening = new Set();
    await next.connect();
    // A Map iterates live: a channel subscribed during these LISTENs is reached too.
    for (const channel of subscribers.keys()) await listen(next, channel);
    if (closed) {
      await next.end();
      return;
    }
    connected = true;
    gapEverywhere();
  };

  const lost = (which: pg.Client) => {
    if (which !== client || closed) return;
    connected = false;
    client = undefined;
    gapEverywhere();
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
    async subscribe(channel, handlers) {
      if (!CHANNEL_NAME.test(channel)) throw new Error(`Invalid channel name ${channel}`);
      const handlersOfChannel = subscribers.get(channel) ?? new Set();
      subscribers.set(channel, handlersOfChannel);
      handlersOfChannel.add(handlers);
      // A failure here is a lost connection: its reconnection LISTENs again.
      if (connected && client) await listen(client, channel).catch(() => {});
      handlers.onGap();
      return async () => {
        handlersOfChannel.delete(handlers);
        if (handlersOfChannel.size > 0 || subscribers.get(channel) !== handlersOfChannel) return;
        subscribers.delete(channel);
        if (connected && client && listening.delete(channel)) {
          await client.query(`UNLISTEN ${channel}`).catch(() => {});
        }
      };
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
