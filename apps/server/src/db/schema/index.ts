// Every table, one file per domain. drizzle-kit reads this folder to generate migrations.
export * from "./settings.ts";
