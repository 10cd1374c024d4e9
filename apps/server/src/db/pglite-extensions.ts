import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

// pg_trgm serves the admin's user search (migration 0001 creates the extension); btree_gin the
// fan's long-term recall (migration 0015). Every PGlite the app opens loads both.
export const PGLITE_EXTENSIONS = { btree_gin, pg_trgm };
