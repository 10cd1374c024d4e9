import { buildApp } from "./app.ts";
import { ConfigError, configuredSecrets, loadConfig } from "./config.ts";
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
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp({ config });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${redactSecrets(error.message)}`);
      process.exit(1);
    }
    throw error;
  }
  const stop = gracefulStop({
    close: () => app.close(),
    log: {
      info: (message) => app.log.info(message),
      warn: (message) => app.log.warn(message),
      error: (message, error) =>
        error === undefined ? app.log.error(message) : app.log.error({ err: error }, message),
    },
    exit: (code) => process.exit(code),
    timeoutMs: SHUTDOWN_TIMEOUT_MS,
  });
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);

  await app.listen({ port: config.port, host: config.host });
  // The address to open is PUBLIC_URL's (its default is http://localhost:{PORT}): the one the
  // links in mail name, so a sign-in there is the one checkout comes back to.
  app.log.info(`Twinline is at ${config.publicUrl} (listening on ${config.host}:${config.port})`);
}

main().catch((error: unknown) => {
  // Whatever failed at boot, its text never carries a configured secret.
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(redactSecrets(text));
  process.exit(1);
});
