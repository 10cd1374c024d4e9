/**
 * Creates or updates an admin account by hand:
 *
 *   npm run admin:create -- --email admin@example.com --password 'a long secret' [--name 'Site Admin']
 *
 * Missing values are read from ADMIN_EMAIL / ADMIN_PASSWORD, else asked for on the terminal.
 * It uses the server's configuration (DATA_DIR or DATABASE_URL). With the embedded PGlite, stop
 * the server first: one process at a time opens its data directory.
 */
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { applyMigrations } from "../db/migrate.ts";
import { syncAdminAccount } from "../modules/auth/admin-account.ts";
import { createUsersRepository } from "../modules/users/repository.ts";

async function ask(question: string): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await terminal.question(question)).trim();
  } finally {
    terminal.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      password: { type: "string" },
      name: { type: "string" },
    },
  });
  const config = loadConfig({ ...process.env, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined });
  const email = values.email ?? process.env.ADMIN_EMAIL ?? (await ask("Admin e-mail: "));
  const password = values.password ?? process.env.ADMIN_PASSWORD ?? (await ask("Admin password: "));
  if (!/^[^\s@]+@[^\s@]+$/.test(email.trim()))
    throw new ConfigError("--email must be an e-mail address");

  const connection = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  });
  try {
    await applyMigrations(connection);
    const result = await syncAdminAccount(createUsersRepository(connection.db), {
      email,
      password,
      ...(values.name ? { name: values.name } : {}),
    });
    console.log(`Admin ${email.trim().toLowerCase()}: ${result}`);
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
