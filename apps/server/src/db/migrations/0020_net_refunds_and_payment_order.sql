ALTER TYPE "public"."refund_kind" ADD VALUE 'failed_payment';--> statement-breakpoint
DROP INDEX "payments_kind_date_idx";--> statement-breakpoint
DROP INDEX "payments_kind_status_date_idx";--> statement-breakpoint
DROP INDEX "payments_kind_amount_idx";--> statement-breakpoint
DROP INDEX "payments_kind_credits_idx";--> statement-breakpoint
DROP INDEX "payments_kind_item_idx";--> statement-breakpoint
DROP INDEX "payments_kind_payment_id_idx";--> statement-breakpoint
DROP INDEX "payments_user_date_idx";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "payments_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
CREATE INDEX "payments_kind_date_seq_idx" ON "payments" USING btree ("kind","transaction_date","seq");--> statement-breakpoint
CREATE INDEX "payments_kind_status_date_seq_idx" ON "payments" USING btree ("kind","status","transaction_date","seq");--> statement-breakpoint
CREATE INDEX "payments_kind_amount_seq_idx" ON "payments" USING btree ("kind","amount_minor","seq");--> statement-breakpoint
CREATE INDEX "payments_kind_credits_seq_idx" ON "payments" USING btree ("kind","credits","seq");--> statement-breakpoint
CREATE INDEX "payments_kind_item_seq_idx" ON "payments" USING btree ("kind","item_name","seq");--> statement-breakpoint
CREATE INDEX "payments_kind_payment_id_seq_idx" ON "payments" USING btree ("kind","stripe_payment_id","seq");--> statement-breakpoint
CREATE INDEX "payments_user_date_seq_idx" ON "payments" USING btree ("user_id","transaction_date","seq");--> statement-breakpoint
-- Hand-written (drizzle cannot express triggers): revenue net of refunds (issue 24, item 2).
-- A payment counts what it kept: its amount less what was given back (refunded_minor), on its
-- own transaction day; a payment refunded in whole counts nothing. (The status is compared as
-- text: on a fresh database every migration runs in one transaction, where an enum value added
-- by an earlier one, 'refunded' of 0013, cannot be used yet.) The update trigger of 0011
-- now also runs when refunded_minor changes (a refund grows it).
CREATE OR REPLACE FUNCTION "payments_rollup_rows"("p" "payments", "sign" int)
RETURNS TABLE ("day" date, "currency" "billing_currency", "credits_minor" bigint, "subscription_minor" bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT "utc_day"(("p")."transaction_date"), ("p")."currency",
    "sign" * CASE WHEN ("p")."kind" = 'credits' THEN ("p")."amount_minor" - ("p")."refunded_minor" ELSE 0 END::bigint,
    "sign" * CASE WHEN ("p")."kind" = 'subscription' THEN ("p")."amount_minor" - ("p")."refunded_minor" ELSE 0 END::bigint
  WHERE ("p")."status"::text IN ('success', 'refunded')
$$;--> statement-breakpoint
DROP TRIGGER "payments_rollup_update" ON "payments";--> statement-breakpoint
CREATE TRIGGER "payments_rollup_update" AFTER UPDATE OF "kind", "status", "currency", "amount_minor", "refunded_minor", "transaction_date" ON "payments"
  FOR EACH ROW WHEN (
    OLD."kind" IS DISTINCT FROM NEW."kind" OR OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."currency" IS DISTINCT FROM NEW."currency" OR OLD."amount_minor" IS DISTINCT FROM NEW."amount_minor"
    OR OLD."refunded_minor" IS DISTINCT FROM NEW."refunded_minor"
    OR OLD."transaction_date" IS DISTINCT FROM NEW."transaction_date"
  ) EXECUTE FUNCTION "payments_rollup_update"();--> statement-breakpoint
-- The kept revenue, counted again from the payments once.
DELETE FROM "revenue_days";--> statement-breakpoint
INSERT INTO "revenue_days" ("day", "currency", "slot", "credits_minor", "subscription_minor")
  SELECT "utc_day"("transaction_date"), "currency", 0,
    coalesce(sum("amount_minor" - "refunded_minor") FILTER (WHERE "kind" = 'credits'), 0),
    coalesce(sum("amount_minor" - "refunded_minor") FILTER (WHERE "kind" = 'subscription'), 0)
  FROM "payments" WHERE "status"::text IN ('success', 'refunded') GROUP BY 1, 2;
--> statement-breakpoint
-- Hand-written: credits USED are usage, not take-backs (issue 24, item 5). A refund or an
-- admin's take-back lowers the balance but is not credits spent on the twin; usage is the call
-- minutes (chat messages are free within the daily limit and have no ledger movement).
CREATE OR REPLACE FUNCTION "users_figures_recount"("user_ids" uuid[]) RETURNS void LANGUAGE plpgsql AS $$
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
    FROM "credit_ledger" WHERE "amount" < 0 AND "kind" = 'call_minute' AND %1$s GROUP BY "user_id"
  ) "s" ON "s"."user_id" = "ids"."id"
  WHERE "u"."id" = "ids"."id"
  $q$, "only", replace("only", '"user_id"', '"id"')) USING "user_ids";
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "credit_ledger_figures"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM "users_credits_add"((SELECT jsonb_agg(jsonb_build_object('user_id', "user_id", 'credits', -"amount"))
      FROM "new_rows" WHERE "amount" < 0 AND "kind" = 'call_minute'));
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM "users_credits_add"((SELECT jsonb_agg(jsonb_build_object('user_id', "user_id", 'credits', "amount"))
      FROM "old_rows" WHERE "amount" < 0 AND "kind" = 'call_minute'));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
UPDATE "users" "u" SET "credits_used" = coalesce((SELECT sum(-"amount") FROM "credit_ledger" "l"
  WHERE "l"."user_id" = "u"."id" AND "l"."amount" < 0 AND "l"."kind" = 'call_minute'), 0);
