-- Custom SQL migration file, put your code below! --
-- Trigram indexes serve the admin's case-insensitive search (ILIKE '%term%') on names and
-- e-mails. pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it.
-- PGlite loads it from @electric-sql/pglite/contrib/pg_trgm (src/db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
