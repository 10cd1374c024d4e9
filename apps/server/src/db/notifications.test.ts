import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { testDatabaseKind } from "../../test/database-kind.ts";
import { type NotificationHub, openNotificationHub } from "./notifications.ts";

// LISTEN/NOTIFY exists between processes on PostgreSQL only (PGlite has one process).
const postgres = testDatabaseKind() === "postgres";

describe.runIf(postgres)("the notification hub", () => {
  const databaseUrl = process.env.TEST_DATABASE_URL ?? "";
  const tag = randomBytes(4).toString("hex");
  // Names of this file's own, so parallel test files never hear each other.
  const channel = (name: string) => `test_${name}_${tag}`;
  const opened: NotificationHub[] = [];
  /** A hub, and the server processes (backends) serving it, told apart by application_name. */
  const open = async () => {
    const applicationName = `twinline_hub_${tag}_${opened.length}`;
    const url = new URL(databaseUrl);
    url.searchParams.set("application_name", applicationName);
    const hub = await openNotificationHub({
      connectionString: url.toString(),
      onError: () => {},
      retryDelayMs: 50,
    });
    opened.push(hub);
    const backends = () =>
      admin(async (client) => {
        const result = await client.query<{ pid: number }>(
          "select pid from pg_stat_activity where application_name = $1",
          [applicationName],
        );
        return result.rows.map((row) => row.pid);
      });
    return { hub, backends };
  };
  const admin = async <T>(run: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.end();
    }
  };
  const notify = (name: string, payload: string) =>
    admin((client) => client.query("select pg_notify($1, $2)", [name, payload]));
  const recorder = () => {
    const heard: string[] = [];
    let gaps = 0;
    return {
      heard,
      gaps: () => gaps,
      handlers: {
        onNotify: (payload: string | undefined) => heard.push(payload ?? ""),
        onGap: () => gaps++,
      },
    };
  };

  afterEach(async () => {
    for (const hub of opened.splice(0)) await hub.close();
  });

  it("hears every channel over one connection, each subscriber only its own", async () => {
    const { hub, backends } = await open();
    const settings = recorder();
    const persona = recorder();
    const keys = recorder();
    await hub.subscribe(channel("settings"), settings.handlers);
    await hub.subscribe(channel("persona"), persona.handlers);
    await hub.subscribe(channel("keys"), keys.handlers);
    expect(await backends()).toHaveLength(1);

    await notify(channel("settings"), "first");
    await notify(channel("persona"), "second");
    await expect.poll(() => [...settings.heard, ...persona.heard]).toEqual(["first", "second"]);
    expect(keys.heard).toEqual([]);
    // Subscribing is a gap: whatever came before it went unheard.
    expect([settings.gaps(), persona.gaps(), keys.gaps()]).toEqual([1, 1, 1]);
  });

  it("stops telling a subscriber once it unsubscribes", async () => {
    const { hub } = await open();
    const leaving = recorder();
    const staying = recorder();
    const unsubscribe = await hub.subscribe(channel("shared"), leaving.handlers);
    await hub.subscribe(channel("shared"), staying.handlers);
    await unsubscribe();
    await notify(channel("shared"), "after");
    await expect.poll(() => staying.heard).toEqual(["after"]);
    expect(leaving.heard).toEqual([]);
  });

  it("reports a lost connection as a gap, reconnects, and hears again", async () => {
    const { hub, backends } = await open();
    const subscriber = recorder();
    await hub.subscribe(channel("lost"), subscriber.handlers);
    expect(hub.connected).toBe(true);

    const [pid] = await backends();
    await admin((client) => client.query("select pg_terminate_backend($1)", [pid]));
    // Lost (a gap, not trustworthy meanwhile), then back (another gap).
    await expect.poll(() => subscriber.gaps()).toBeGreaterThanOrEqual(3);
    await expect.poll(() => hub.connected).toBe(true);

    await notify(channel("lost"), "back");
    await expect.poll(() => subscriber.heard).toEqual(["back"]);
  });
});
