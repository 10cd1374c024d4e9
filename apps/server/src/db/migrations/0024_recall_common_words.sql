-- Hand-written: the words too common to recall by (memory/repository.ts COMMON_WORD_SHARE), read
-- from the planner's statistics of chat_messages.tsv. A PL/pgSQL function keeps its plan for the
-- session, so recall no longer plans the pg_stats view (a join of five catalogs with privilege
-- checks) on every message: that planning was most of recall's cost on PGlite.
-- most_common_elem_freqs has three more entries than most_common_elems (the lowest and highest
-- frequency, the share of nulls), so unnest pairs them with NULL lexemes: those are not words,
-- and a NULL in a NOT IN list would drop every word.
CREATE FUNCTION "recall_common_words"("min_share" real) RETURNS text[] LANGUAGE plpgsql STABLE AS $$
DECLARE "words" text[];
BEGIN
  SELECT coalesce(array_agg("e"."lexeme"), '{}') INTO "words" FROM "pg_stats" "s",
    unnest("s"."most_common_elems"::text::text[], "s"."most_common_elem_freqs") AS "e"("lexeme", "share")
  WHERE "s"."schemaname" = current_schema() AND "s"."tablename" = 'chat_messages'
    AND "s"."attname" = 'tsv' AND "e"."lexeme" IS NOT NULL AND "e"."share" > "min_share";
  RETURN "words";
END $$;
