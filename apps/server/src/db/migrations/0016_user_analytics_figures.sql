CREATE TABLE "user_analytics_totals" (
	"slot" smallint PRIMARY KEY NOT NULL,
	"users" bigint DEFAULT 0 NOT NULL,
	"seconds" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "interaction_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "credits_used" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_message_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_call_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_interaction_at" timestamp with time zone GENERATED ALWAYS AS (greatest(last_message_at, last_call_at)) STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_active_at" timestamp with time zone GENERATED ALWAYS AS (greatest(last_login, last_message_at, last_call_at)) STORED;--> statement-breakpoint
CREATE INDEX "users_last_active_at_idx" ON "users" USING btree ("last_active_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "users_analytics_last_idx" ON "users" USING btree ("last_interaction_at","id") WHERE "users"."role" = 'user' and "users"."last_interaction_at" is not null;--> statement-breakpoint
CREATE INDEX "users_analytics_time_idx" ON "users" USING btree ("interaction_micros","id") WHERE "users"."role" = 'user' and "users"."last_interaction_at" is not null;--> statement-breakpoint
CREATE INDEX "users_analytics_credits_idx" ON "users" USING btree ("credits_used","id") WHERE "users"."role" = 'user' and "users"."last_interaction_at" is not null;--> statement-breakpoint
CREATE INDEX "users_analytics_name_idx" ON "users" USING btree (lower("name"),"id") WHERE "users"."role" = 'user' and "users"."last_interaction_at" is not null;--> statement-breakpoint
CREATE INDEX "users_analytics_email_idx" ON "users" USING btree (lower("email"),"id") WHERE "users"."role" = 'user' and "users"."last_interaction_at" is not null;--> statement-breakpoint
-- Hand-written (drizzle cannot express triggers): User Analytics' kept figures on users
-- (docs/decisions/0048), changed in the same transaction as the messages, calls and ledger rows
-- they count. Chat time follows decision 0026: the gap between two consecutive messages of a user
-- (by created_at, then seq) counts when it is at most 30 minutes, plus 30 s per user message.
CREATE FUNCTION "chat_gap_micros"("a" timestamptz, "b" timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN extract(epoch FROM "b" - "a") <= 1800
    THEN (extract(epoch FROM "b" - "a") * 1000000)::bigint ELSE 0 END
$$;--> statement-breakpoint
-- Every figure of the given users counted again from the tables (the backfill, and the rare
-- writes an increment cannot follow: a message or call moved, a call deleted). The caller holds
-- the users' row locks when others may write.
-- NULL: every user (one pass over each table); otherwise the given users, through their indexes.
CREATE FUNCTION "users_figures_recount"("user_ids" uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE "only" text := CASE WHEN "user_ids" IS NULL THEN 'true' ELSE '"user_id" = ANY($1)' END;
BEGIN
  EXECUTE format($q$
  UPDATE "users" "u" SET
    "interaction_micros" = coalesce("c"."micros", 0) + coalesce("v"."seconds", 0) * 1000000,
    "last_message_at" = "c"."last_at", "last_call_at" = "v"."last_at",
    "credits_used" = coalesce("s"."credits", 0)
  FROM (SELECT "id" FROM "users" WHERE %2$s) "ids"
  LEFT JOIN (
    SELECT "user_id", sum("chat_gap_micros"("prev", "created_at"))
        + 30000000 * count(*) FILTER (WHERE "sender" = 'user') AS "micros",
      max("created_at") AS "last_at"
    FROM (
      SELECT "user_id", "sender", "created_at",
        lag("created_at") OVER (PARTITION BY "user_id" ORDER BY "created_at", "seq") AS "prev"
      FROM "chat_messages" WHERE %1$s
    ) "m" GROUP BY "user_id"
  ) "c" ON "c"."user_id" = "ids"."id"
  LEFT JOIN (
    SELECT "user_id", sum("duration_seconds") AS "seconds", max(coalesce("ended_at", "started_at")) AS "last_at"
    FROM "voice_calls" WHERE %1$s GROUP BY "user_id"
  ) "v" ON "v"."user_id" = "ids"."id"
  LEFT JOIN (
    SELECT "user_id", sum(-"amount") AS "credits"
    FROM "credit_ledger" WHERE "amount" < 0 AND %1$s GROUP BY "user_id"
  ) "s" ON "s"."user_id" = "ids"."id"
  WHERE "u"."id" = "ids"."id"
  $q$, "only", replace("only", '"user_id"', '"id"')) USING "user_ids";
END $$;--> statement-breakpoint
CREATE FUNCTION "users_figures_recount_locked"("user_ids" uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "users" WHERE "id" = ANY("user_ids") ORDER BY "id" FOR NO KEY UPDATE;
  PERFORM "users_figures_recount"("user_ids");
END $$;--> statement-breakpoint
SELECT "users_figures_recount"(NULL);--> statement-breakpoint
-- The summary cards: users who chatted or called and their rounded seconds, kept per change of
-- a user's figures (a row trigger that does nothing unless a counted value changes).
-- Counted again from users in one pass (the backfill; a bulk load made with triggers off).
CREATE FUNCTION "user_analytics_totals_recount"() RETURNS void LANGUAGE sql AS $$
  DELETE FROM "user_analytics_totals";
  INSERT INTO "user_analytics_totals" ("slot", "users", "seconds")
    SELECT 0, count(*), coalesce(sum(round("interaction_micros"::numeric / 1000000)), 0) FROM "users"
    WHERE "role" = 'user' AND "last_interaction_at" IS NOT NULL;
$$;--> statement-breakpoint
SELECT "user_analytics_totals_recount"();--> statement-breakpoint
CREATE FUNCTION "user_analytics_totals_add"("users" bigint, "seconds" bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "user_analytics_totals" ("slot", "users", "seconds")
    SELECT floor(random() * 16)::smallint, "users", "seconds" WHERE "users" <> 0 OR "seconds" <> 0
    ON CONFLICT ("slot") DO UPDATE SET "users" = "user_analytics_totals"."users" + excluded."users",
      "seconds" = "user_analytics_totals"."seconds" + excluded."seconds"
$$;--> statement-breakpoint
CREATE FUNCTION "users_analytics_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE "n" bigint := 0; "s" bigint := 0;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD."role" = 'user' AND OLD."last_interaction_at" IS NOT NULL THEN
    "n" := "n" - 1; "s" := "s" - round(OLD."interaction_micros"::numeric / 1000000)::bigint;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW."role" = 'user' AND NEW."last_interaction_at" IS NOT NULL THEN
    "n" := "n" + 1; "s" := "s" + round(NEW."interaction_micros"::numeric / 1000000)::bigint;
  END IF;
  PERFORM "user_analytics_totals_add"("n", "s");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_analytics_totals_update" AFTER UPDATE OF "role", "interaction_micros", "last_message_at", "last_call_at" ON "users"
  FOR EACH ROW WHEN (
    OLD."role" IS DISTINCT FROM NEW."role" OR OLD."interaction_micros" <> NEW."interaction_micros"
    OR (OLD."last_message_at" IS NULL AND OLD."last_call_at" IS NULL) <> (NEW."last_message_at" IS NULL AND NEW."last_call_at" IS NULL)
  ) EXECUTE FUNCTION "users_analytics_totals"();--> statement-breakpoint
CREATE TRIGGER "users_analytics_totals_insert" AFTER INSERT ON "users"
  FOR EACH ROW WHEN (NEW."last_message_at" IS NOT NULL OR NEW."last_call_at" IS NOT NULL)
  EXECUTE FUNCTION "users_analytics_totals"();--> statement-breakpoint
CREATE TRIGGER "users_analytics_totals_delete" AFTER DELETE ON "users"
  FOR EACH ROW WHEN (OLD."last_message_at" IS NOT NULL OR OLD."last_call_at" IS NOT NULL)
  EXECUTE FUNCTION "users_analytics_totals"();--> statement-breakpoint
-- chat_messages: a message joins or leaves its user's sequence between two neighbours. Row-level
-- BEFORE triggers see the rows of the same statement processed before them, so a bulk insert or
-- a cascade is counted one message after the other. The user's row is locked first, so a
-- concurrent message of the same user is seen once it commits.
CREATE FUNCTION "chat_messages_figures"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "m" "chat_messages" := CASE WHEN TG_OP = 'INSERT' THEN NEW ELSE OLD END;
  "sign" int := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
  "prev" timestamptz;
  "next" timestamptz;
BEGIN
  PERFORM 1 FROM "users" WHERE "id" = "m"."user_id" FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN "m"; END IF; -- the user is being deleted
  SELECT "created_at" INTO "prev" FROM "chat_messages"
    WHERE "user_id" = "m"."user_id" AND ("created_at", "seq") < ("m"."created_at", "m"."seq")
    ORDER BY "created_at" DESC, "seq" DESC LIMIT 1;
  SELECT "created_at" INTO "next" FROM "chat_messages"
    WHERE "user_id" = "m"."user_id" AND ("created_at", "seq") > ("m"."created_at", "m"."seq")
    ORDER BY "created_at", "seq" LIMIT 1;
  UPDATE "users" SET
    "interaction_micros" = "interaction_micros" + "sign" * (
      "chat_gap_micros"("prev", "m"."created_at") + "chat_gap_micros"("m"."created_at", "next")
      - "chat_gap_micros"("prev", "next") + CASE WHEN "m"."sender" = 'user' THEN 30000000 ELSE 0 END),
    "last_message_at" = CASE
      WHEN "sign" > 0 THEN greatest("last_message_at", "m"."created_at")
      WHEN "next" IS NULL THEN "prev"
      ELSE "last_message_at" END
  WHERE "id" = "m"."user_id";
  RETURN "m";
END $$;--> statement-breakpoint
CREATE TRIGGER "chat_messages_figures_insert" BEFORE INSERT ON "chat_messages"
  FOR EACH ROW EXECUTE FUNCTION "chat_messages_figures"();--> statement-breakpoint
CREATE TRIGGER "chat_messages_figures_delete" BEFORE DELETE ON "chat_messages"
  FOR EACH ROW EXECUTE FUNCTION "chat_messages_figures"();--> statement-breakpoint
CREATE FUNCTION "chat_messages_figures_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "users_figures_recount_locked"(ARRAY(
    SELECT DISTINCT "x" FROM "old_rows" "o" JOIN "new_rows" "n" ON "n"."id" = "o"."id",
      unnest(ARRAY["o"."user_id", "n"."user_id"]) "x"
    WHERE "o"."user_id" <> "n"."user_id" OR "o"."created_at" <> "n"."created_at" OR "o"."sender" <> "n"."sender"));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "chat_messages_figures_update" AFTER UPDATE ON "chat_messages"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "chat_messages_figures_update"();--> statement-breakpoint
-- voice_calls: a new call adds its seconds and may be the latest; a call that runs on (the
-- meter's minute, its end) adds the difference. A call deleted, moved to another user or made
-- earlier than it was has its users counted again.
CREATE FUNCTION "voice_calls_figures_add"("changes" jsonb) RETURNS void LANGUAGE sql AS $$
  UPDATE "users" "u" SET "interaction_micros" = "u"."interaction_micros" + "c"."seconds" * 1000000,
    "last_call_at" = greatest("u"."last_call_at", "c"."last_at")
  FROM (
    SELECT ("e"->>'user_id')::uuid AS "user_id", sum(("e"->>'seconds')::bigint) AS "seconds",
      max(("e"->>'last_at')::timestamptz) AS "last_at"
    FROM jsonb_array_elements("changes") "e" GROUP BY 1
  ) "c"
  WHERE "u"."id" = "c"."user_id"
$$;--> statement-breakpoint
CREATE FUNCTION "voice_calls_figures"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE "recount" uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "voice_calls_figures_add"((SELECT jsonb_agg(jsonb_build_object('user_id', "user_id",
      'seconds', "duration_seconds", 'last_at', coalesce("ended_at", "started_at"))) FROM "new_rows"));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "users_figures_recount_locked"(ARRAY(SELECT DISTINCT "user_id" FROM "old_rows"));
  ELSE
    "recount" := ARRAY(
      SELECT DISTINCT "x" FROM "old_rows" "o" JOIN "new_rows" "n" ON "n"."id" = "o"."id",
        unnest(ARRAY["o"."user_id", "n"."user_id"]) "x"
      WHERE "o"."user_id" <> "n"."user_id"
        OR coalesce("n"."ended_at", "n"."started_at") < coalesce("o"."ended_at", "o"."started_at"));
    PERFORM "users_figures_recount_locked"("recount");
    PERFORM "voice_calls_figures_add"((SELECT jsonb_agg(jsonb_build_object('user_id', "n"."user_id",
        'seconds', "n"."duration_seconds" - "o"."duration_seconds",
        'last_at', coalesce("n"."ended_at", "n"."started_at")))
      FROM "old_rows" "o" JOIN "new_rows" "n" ON "n"."id" = "o"."id"
      WHERE NOT ("n"."user_id" = ANY("recount"))
        AND ("n"."duration_seconds" <> "o"."duration_seconds"
          OR coalesce("n"."ended_at", "n"."started_at") <> coalesce("o"."ended_at", "o"."started_at"))));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "voice_calls_figures_insert" AFTER INSERT ON "voice_calls"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "voice_calls_figures"();--> statement-breakpoint
CREATE TRIGGER "voice_calls_figures_delete" AFTER DELETE ON "voice_calls"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "voice_calls_figures"();--> statement-breakpoint
CREATE TRIGGER "voice_calls_figures_update" AFTER UPDATE ON "voice_calls"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "voice_calls_figures"();--> statement-breakpoint
-- credit_ledger: credits used is the sum of the negative entries, as a positive number.
CREATE FUNCTION "users_credits_add"("changes" jsonb) RETURNS void LANGUAGE sql AS $$
  UPDATE "users" "u" SET "credits_used" = "u"."credits_used" + "c"."credits"
  FROM (
    SELECT ("e"->>'user_id')::uuid AS "user_id", sum(("e"->>'credits')::bigint) AS "credits"
    FROM jsonb_array_elements("changes") "e" GROUP BY 1 HAVING sum(("e"->>'credits')::bigint) <> 0
  ) "c"
  WHERE "u"."id" = "c"."user_id"
$$;--> statement-breakpoint
CREATE FUNCTION "credit_ledger_figures"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM "users_credits_add"((SELECT jsonb_agg(jsonb_build_object('user_id', "user_id", 'credits', -"amount"))
      FROM "new_rows" WHERE "amount" < 0));
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM "users_credits_add"((SELECT jsonb_agg(jsonb_build_object('user_id', "user_id", 'credits', "amount"))
      FROM "old_rows" WHERE "amount" < 0));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "credit_ledger_figures_insert" AFTER INSERT ON "credit_ledger"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "credit_ledger_figures"();--> statement-breakpoint
CREATE TRIGGER "credit_ledger_figures_delete" AFTER DELETE ON "credit_ledger"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "credit_ledger_figures"();--> statement-breakpoint
CREATE TRIGGER "credit_ledger_figures_update" AFTER UPDATE ON "credit_ledger"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "credit_ledger_figures"();
