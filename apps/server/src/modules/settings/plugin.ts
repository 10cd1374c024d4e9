import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { startNotifyCache, startWatched } from "../../db/cached-by-notify.ts";
import { createSecretBox } from "../../lib/secret-box.ts";
import {
  createProviderKeysRepository,
  PROVIDER_KEYS_CHANGED_CHANNEL,
  type ProviderKeysRepository,
} from "./keys-repository.ts";
import { createSitePagesRepository } from "./pages-repository.ts";
import { sitePagesRoutes } from "./pages-routes.ts";
import { createSitePagesService, type SitePagesService } from "./pages-service.ts";
import { createSettingsRepository, SETTINGS_CHANGED_CHANNEL } from "./repository.ts";
import { settingsRoutes } from "./routes.ts";
import { createSettingsService, type SettingsService } from "./service.ts";
import { webManifestRoutes } from "./web-manifest.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The site settings: cached reads, updates that reach every instance. */
    settings: SettingsService;
    /**
     * The admin's provider keys, sealed at rest (docs/decisions/0010-provider-keys.md); `read`
     * answers from memory, dropped by every key write here or on another instance (0013).
     */
    providerKeys: ProviderKeysRepository;
    /** The legal and company pages: the admin's markdown or the built-in text. */
    sitePages: SitePagesService;
  }
}

/**
 * The settings service and its routes. Every update drops this process's cache at once, and on
 * PostgreSQL every instance's by a NOTIFY on `settings_changed`
 * (docs/decisions/0002-settings-cache.md, db/cached-by-notify.ts).
 */
export const settingsModule = fp<{ secretsKey: string }>(
  async (app: FastifyInstance, { secretsKey }) => {
    const connection = app.database;
    const { made: settings, close: stopWatching } = await startWatched({
      connection,
      channel: SETTINGS_CHANGED_CHANNEL,
      make: (cacheIsTrustworthy) =>
        createSettingsService({
          repository: createSettingsRepository(connection.db),
          cacheIsTrustworthy,
          onInvalidStoredValue: (paths) =>
            app.log.warn({ paths }, "Stored settings had invalid values; their defaults are used"),
        }),
      onChange: (made) => made.invalidate(),
    });
    app.addHook("onClose", stopWatching);

    app.decorate("settings", settings);
    const keys = createProviderKeysRepository(connection.db, createSecretBox(secretsKey), (name) =>
      app.log.warn({ key: name }, "A stored provider key does not open with SECRETS_KEY; ignored"),
    );
    // Decrypted keys in memory: each provider call reads no table (0013). Frozen, as they are shared.
    const cachedKeys = await startNotifyCache({
      connection,
      channel: PROVIDER_KEYS_CHANGED_CHANNEL,
      load: async () => Object.freeze(await keys.read()),
    });
    app.addHook("onClose", async () => cachedKeys.close());
    app.decorate<ProviderKeysRepository>("providerKeys", {
      read: () => cachedKeys.cache.get(),
      write: (changes) => keys.write(changes),
      writeStep: (changes) => keys.writeStep(changes),
    });
    await app.register(settingsRoutes, { settings });
    await app.register(webManifestRoutes, { settings });
    const pages = createSitePagesService({
      repository: createSitePagesRepository(connection.db),
      settings,
    });
    app.decorate("sitePages", pages);
    await app.register(sitePagesRoutes, { pages });
  },
  { name: "settings" },
);
