import { defineConfig } from "drizzle-kit";

// `npm run db:generate -w @twinline/server` writes a new SQL migration after a schema change.
// Migrations are generated, reviewed and committed; the server applies them at boot.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema",
  out: "./src/db/migrations",
});
