// Every table, one file per domain. drizzle-kit reads this folder to generate migrations.
export * from "./ai-training.ts";
export * from "./analytics.ts";
export * from "./audit.ts";
export * from "./auth.ts";
export * from "./billing.ts";
export * from "./chat.ts";
export * from "./consents.ts";
export * from "./credits.ts";
export * from "./dashboards.ts";
export * from "./mail.ts";
export * from "./privacy.ts";
export * from "./refunds.ts";
export * from "./settings.ts";
export * from "./sittings.ts";
export * from "./trial.ts";
export * from "./users.ts";
export * from "./voice.ts";
