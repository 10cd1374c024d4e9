import { spawn } from "node:child_process";
import { BackupError } from "./backup-error.ts";

/**
 * PostgreSQL's own tools do the work: pg_dump's custom format in a backup, pg_restore to turn it
 * back into SQL, psql to apply it in one transaction. The password travels in PGPASSWORD, never
 * on a command line another user could read in the process list.
 */
interface Connection {
  url: string;
  env: NodeJS.ProcessEnv;
}

function connectionOf(databaseUrl: string): Connection {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return {
    url: url.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-4_000);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new BackupError(
              `${command} was not found: install PostgreSQL's client tools (Debian: postgresql-client), of the server's major version or newer`,
            )
          : error,
      );
    });
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${command} failed (exit ${code}): ${stderr.trim()}`));
    });
  });
}

/** The whole database (every schema: the app's, drizzle's migration log) in pg_dump's custom format. */
export async function dumpPostgres(databaseUrl: string, file: string): Promise<void> {
  const { url, env } = connectionOf(databaseUrl);
  await run(
    "pg_dump",
    ["--format=custom", "--no-owner", "--no-privileges", `--file=${file}`, `--dbname=${url}`],
    env,
  );
}

// Everything the dump will recreate goes first, in the same transaction as the restore: a restore
// that fails leaves the database as it was.
const WIPE_SQL = `do $$
declare schema_name text;
begin
  for schema_name in
    select nspname from pg_namespace
    where nspname not in ('pg_catalog', 'information_schema')
      and nspname not like 'pg\\_toast%' and nspname not like 'pg\\_temp%'
  loop
    execute format('drop schema %I cascade', schema_name);
  end loop;
  create schema public;
end $$;`;

/** Replaces the database's contents with the dump's, all or nothing. */
export async function restorePostgres(
  databaseUrl: string,
  dump: string,
  scratch: string,
): Promise<void> {
  const { url, env } = connectionOf(databaseUrl);
  await run("pg_restore", ["--no-owner", "--no-privileges", `--file=${scratch}`, dump], env);
  await run(
    "psql",
    [
      "--no-psqlrc",
      "--quiet",
      "--single-transaction",
      "--set=ON_ERROR_STOP=1",
      `--dbname=${url}`,
      `--command=${WIPE_SQL}`,
      `--file=${scratch}`,
    ],
    env,
  );
}
