import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../../config.ts";
import { adminSettingsRoutes } from "./admin-routes.ts";
import { createAdminSettingsService } from "./admin-service.ts";
import { createKeyTestsRepository } from "./key-tests.ts";
import { adminSitePagesRoutes } from "./pages-routes.ts";

export interface AdminSettingsModuleOptions {
  config: Config;
  /** A lower image limit (tests). */
  imageBytes?: number;
}

/**
 * The admin's settings (masked keys, key tests, images), every route guarded for admins by its
 * definition (routes.settings, routes.sitePages: access "admin").
 * Needs settings, providers, uploads and accounts (requireAdmin) registered before it.
 */
export const adminSettingsModule = fp<AdminSettingsModuleOptions>(
  async (app: FastifyInstance, options) => {
    const service = createAdminSettingsService({
      config: options.config,
      settings: app.settings,
      keys: app.providerKeys,
      providers: app.providers.deps,
      publicFiles: app.uploads.publicFiles,
      keyTests: createKeyTestsRepository(app.database.db, options.config.secretsKey),
      onFileDeleteFailed: (name, error) =>
        app.log.warn({ err: error, file: name }, "Could not delete a replaced upload"),
    });
    await app.register(adminSettingsRoutes, {
      service,
      ...(options.imageBytes ? { imageBytes: options.imageBytes } : {}),
    });
    await app.register(adminSitePagesRoutes, { pages: app.sitePages });
  },
  { name: "admin-settings", dependencies: ["settings", "providers", "uploads", "accounts"] },
);
