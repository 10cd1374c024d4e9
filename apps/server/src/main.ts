import type { FastifyInstance } from "fastify";
import { ConfigError, configuredSecrets, loadConfig } from "./config.ts";
import { openEmbeddedDatabase } from "./db/embedded.ts";
import { gracefulStop } from "./lib/graceful-stop.ts";
import { redactSecrets, rememberSecret } from "./lib/secret-values.ts";

// How long a graceful shutdown may take before the process exits anyway.
const SHUTDOWN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // A person fixes this from the message alone: no stack trace.
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  for (const secret of configuredSecrets(config)) rememberSecret(secret, true);
  // The database opens first: the embedded one starts its engine on its own thread while this
  // one loads the app's modules (issue 28 item 5: a start waited for one, then the other), and
  // before drizzle, pg and the schema are loaded too (a light module starts the thread).
  let app: FastifyInstance | undefined;
  const onBackgroundError = (error: Error) =>
    app
      ? app.log.error({ err: error }, "Database error outside a request")
      : console.error(redactSecrets(error.stack ?? error.message));
  const embedded = config.databaseUrl
    ? undefined
    : openEmbeddedDatabase(config.dataDir, { onError: onBackgroundError });
  const database = import("./db/client.ts").then(({ openDatabase }) =>
    openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      onBackgroundError,
      ...(embedded ? { embedded } : {}),
    }),
  );
  // Awaited by buildApp; until then a failure to open must not count as unhandled.
  embedded?.catch(() => {});
  database.catch(() => {});
  try {
    const { buildApp } = await import("./app.ts");
    app = await buildApp({ config, database });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${redactSecrets(error.message)}`);
      process.exit(1);
    }
    throw error;
  }
  const server = app;
  const stop = gracefulStop({
    close: () => server.close(),
    log: {
      info: (message) => server.log.info(message),
      warn: (message) => server.log.warn(message),
      error: (message, error) =>
        error === undefined ? server.log.error(message) : server.log.error({ err: error }, message),
    },
    exit: (code) => process.exit(code),
    timeoutMs: SHUTDOWN_TIMEOUT_MS,
  });
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);

  await server.listen({ port: config.port, host: config.host });
  // The address to open is PUBLIC_URL's (its default is http://localhost:{PORT}): the one the
  // links in mail name, so a sign-in there is the one checkout comes back to.
  server.log.info(
    `Twinline is at ${config.publicUrl} (listening on ${config.host}:${config.port})`,
  );
}

main().catch((error: unknown) => {
  // Whatever failed at boot, its text never carries a configured secret.
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(redactSecrets(text));
  process.exit(1);
});
