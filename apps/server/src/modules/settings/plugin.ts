import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { DatabaseConnection } from "../../db/client.ts";
import { listenForNotifications, type NotificationListener } from "../../db/notifications.ts";
import { createSecretBox } from "../../lib/secret-box.ts";
import { createProviderKeysRepository, type ProviderKeysRepository } from "./keys-repository.ts";
import { createSettingsRepository, SETTINGS_CHANGED_CHANNEL } from "./repository.ts";
import { settingsRoutes } from "./routes.ts";
import { createSettingsService, type SettingsService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The site settings: cached reads, updates that reach every instance. */
    settings: SettingsService;
    /** The admin's provider keys, sealed at rest (docs/decisions/0010-provider-keys.md). */
    providerKeys: ProviderKeysRepository;
  }
}

/**
 * The settings service and its routes. On PostgreSQL the cache of every instance is dropped by
 * a NOTIFY on `settings_changed` (docs/decisions/0002-settings-cache.md); PGlite has one
 * process by construction, so the service's own invalidation after an update is enough.
 */
export const settingsModule = fp<{ connection: DatabaseConnection; secretsKey: string }>(
  async (app: FastifyInstance, { connection, secretsKey }) => {
    let listener: NotificationListener | undefined;
    const settings = createSettingsService({
      repository: createSettingsRepository(connection.db),
      cacheIsTrustworthy: () => connection.kind === "pglite" || listener?.connected === true,
      onInvalidStoredValue: (paths) =>
        app.log.warn({ paths }, "Stored settings had invalid values; their defaults are used"),
    });

    if (connection.kind === "postgres") {
      listener = await listenForNotifications({
        connectionString: connection.connectionString,
        channel: SETTINGS_CHANGED_CHANNEL,
        onNotify: () => settings.invalidate(),
        onGap: () => settings.invalidate(),
        onError: (error) => app.log.warn({ err: error }, "Settings change listener lost"),
      });
      app.addHook("onClose", async () => listener?.close());
    }

    app.decorate("settings", settings);
    app.decorate(
      "providerKeys",
      createProviderKeysRepository(connection.db, createSecretBox(secretsKey), (name) =>
        app.log.warn(
          { key: name },
          "A stored provider key does not open with SECRETS_KEY; ignored",
        ),
      ),
    );
    await app.register(settingsRoutes, { settings });
  },
  { name: "settings" },
);
