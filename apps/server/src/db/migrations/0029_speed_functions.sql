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
--> statement-breakpoint
-- Hand-written: THE way credits move (credits/ledger.ts applyCreditMovement) as one statement.
-- Before, it was five statements in a transaction (lock the user, look the key up, insert, update
-- the balance), each a round trip to the app; on PGlite's one connection the transaction holds
-- the database through every trip, so under load a call's minute charge kept every other
-- statement waiting. Same rules: the user's row locked first, a source key already in the
-- ledger changes nothing, the balance never below zero nor above 2^31-1 (nothing written then).
-- Answers the outcome and the balance (after a movement; as it is otherwise; NULL: no user).
CREATE FUNCTION "apply_credit_movement"("p_user_id" uuid, "p_kind" "credit_kind", "p_amount" integer,
  "p_source_key" text, "p_metadata" jsonb)
RETURNS TABLE ("movement_status" text, "movement_balance" integer) LANGUAGE plpgsql AS $$
DECLARE "current_credits" integer; "credits_after" bigint;
BEGIN
  SELECT "credits" INTO "current_credits" FROM "users" WHERE "id" = "p_user_id" FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'missing'::text, NULL::integer; RETURN;
  END IF;
  IF EXISTS (SELECT 1 FROM "credit_ledger" WHERE "source_key" = "p_source_key") THEN
    RETURN QUERY SELECT 'already'::text, "current_credits"; RETURN;
  END IF;
  "credits_after" := "current_credits"::bigint + "p_amount";
  IF "credits_after" < 0 THEN
    RETURN QUERY SELECT 'insufficient'::text, "current_credits"; RETURN;
  END IF;
  IF "credits_after" > 2147483647 THEN
    RETURN QUERY SELECT 'full'::text, "current_credits"; RETURN;
  END IF;
  -- ON CONFLICT covers a same-key movement of another user committed meanwhile.
  INSERT INTO "credit_ledger" ("user_id", "kind", "amount", "balance_after", "source_key", "metadata")
    VALUES ("p_user_id", "p_kind", "p_amount", "credits_after", "p_source_key", "p_metadata")
    ON CONFLICT ("source_key") DO NOTHING;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'already'::text, "current_credits"; RETURN;
  END IF;
  UPDATE "users" SET "credits" = "credits_after", "updated_at" = now() WHERE "id" = "p_user_id";
  RETURN QUERY SELECT 'applied'::text, "credits_after"::integer;
END $$;
