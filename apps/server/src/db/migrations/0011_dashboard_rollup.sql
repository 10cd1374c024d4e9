CREATE TABLE "dashboard_days" (
	"day" date NOT NULL,
	"slot" smallint NOT NULL,
	"signups" bigint DEFAULT 0 NOT NULL,
	"callers" bigint DEFAULT 0 NOT NULL,
	"subscribers" bigint DEFAULT 0 NOT NULL,
	"cancelling" bigint DEFAULT 0 NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	"credits_revenue_minor" bigint DEFAULT 0 NOT NULL,
	"subscription_revenue_minor" bigint DEFAULT 0 NOT NULL,
	"call_seconds" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_days_day_slot_pk" PRIMARY KEY("day","slot")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "first_call_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "subscribed_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "users_subscribed_until_idx" ON "users" USING btree ("subscribed_until") WHERE "users"."role" = 'user' and "users"."subscribed_until" is not null;--> statement-breakpoint-- Hand-written (drizzle cannot express triggers): the dashboard's rollup and the two user columns
-- it counts (docs/decisions/0027). Inserts and deletes are counted per statement (a bulk load is
-- one pass); updates per row, and only when a counted column changes.
CREATE FUNCTION "utc_day"("at" timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ("at" AT TIME ZONE 'UTC')::date
$$;--> statement-breakpoint
-- hasActiveSubscription's rule (modules/users/mapper.ts) for one subscription row.
CREATE FUNCTION "subscribed_until_of"("status" "subscription_status", "cancel_at_period_end" boolean, "period_end" timestamptz)
RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN "status" IN ('active', 'past_due')
    THEN CASE WHEN "cancel_at_period_end" THEN "period_end" ELSE 'infinity'::timestamptz END
  END
$$;--> statement-breakpoint
-- The existing rows: each user's first call and current subscription, then the rollup itself.
UPDATE "users" "u" SET "first_call_at" = "f"."first"
  FROM (SELECT "user_id", min("started_at") AS "first" FROM "voice_calls" GROUP BY "user_id") "f"
  WHERE "u"."id" = "f"."user_id";--> statement-breakpoint
UPDATE "users" "u" SET "subscribed_until" = "c"."until"
  FROM (
    SELECT DISTINCT ON ("user_id") "user_id",
      "subscribed_until_of"("status", "cancel_at_period_end", "current_period_end") AS "until"
    FROM "user_subscriptions" ORDER BY "user_id", "created_at" DESC
  ) "c"
  WHERE "u"."id" = "c"."user_id" AND "c"."until" IS NOT NULL;--> statement-breakpoint
INSERT INTO "dashboard_days" ("day", "slot", "signups", "callers", "subscribers", "cancelling", "revenue_cents",
    "credits_revenue_minor", "subscription_revenue_minor", "call_seconds")
  SELECT "day", 0, sum("signups"), sum("callers"), sum("subscribers"), sum("cancelling"), sum("revenue_cents"),
    sum("credits_minor"), sum("subscription_minor"), sum("call_seconds")
  FROM (
    SELECT "utc_day"("created_at") AS "day", count(*) AS "signups", count("first_call_at") AS "callers",
      count(*) FILTER (WHERE "subscribed_until" = 'infinity') AS "subscribers", 0 AS "cancelling",
      0 AS "revenue_cents", 0 AS "credits_minor", 0 AS "subscription_minor", 0 AS "call_seconds"
    FROM "users" WHERE "role" = 'user' GROUP BY 1
    UNION ALL
    SELECT "utc_day"("subscribed_until"), 0, 0, 0, count(*), 0, 0, 0, 0
    FROM "users" WHERE "role" = 'user' AND "subscribed_until" < 'infinity' GROUP BY 1
    UNION ALL
    SELECT "utc_day"("transaction_date"), 0, 0, 0, 0,
      coalesce(sum("amount_minor") FILTER (WHERE "currency" = 'usd'), 0),
      coalesce(sum("amount_minor") FILTER (WHERE "kind" = 'credits'), 0),
      coalesce(sum("amount_minor") FILTER (WHERE "kind" = 'subscription'), 0), 0
    FROM "payments" WHERE "status" = 'success' GROUP BY 1
    UNION ALL
    SELECT "utc_day"("started_at"), 0, 0, 0, 0, 0, 0, 0, sum("duration_seconds") FROM "voice_calls" GROUP BY 1
  ) "all_days"
  GROUP BY "day";--> statement-breakpoint
-- users: sign-ups, callers and renewing subscribers on the sign-up day; subscribers set to cancel
-- on the day their paid period ends. A user's contributions, as rows of (day, counts):
CREATE FUNCTION "users_rollup_rows"("u" "users", "sign" int)
RETURNS TABLE ("day" date, "signups" int, "callers" int, "subscribers" int, "cancelling" int)
LANGUAGE sql IMMUTABLE AS $$
  SELECT "utc_day"(("u")."created_at"), "sign", "sign" * (("u")."first_call_at" IS NOT NULL)::int,
    "sign" * coalesce(("u")."subscribed_until" = 'infinity', false)::int, 0
  WHERE ("u")."role" = 'user'
  UNION ALL
  SELECT "utc_day"(("u")."subscribed_until"), 0, 0, 0, "sign"
  WHERE ("u")."role" = 'user' AND ("u")."subscribed_until" < 'infinity'
$$;--> statement-breakpoint
CREATE FUNCTION "users_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE "sign" int := TG_ARGV[0]::int;
BEGIN
  INSERT INTO "dashboard_days" ("day", "slot", "signups", "callers", "subscribers", "cancelling")
    SELECT "r"."day", floor(random() * 16)::smallint, sum("r"."signups"), sum("r"."callers"),
      sum("r"."subscribers"), sum("r"."cancelling")
    FROM "changed_rows" "c", "users_rollup_rows"("c", "sign") "r" GROUP BY "r"."day"
    ON CONFLICT ("day", "slot") DO UPDATE SET "signups" = "dashboard_days"."signups" + excluded."signups",
      "callers" = "dashboard_days"."callers" + excluded."callers",
      "subscribers" = "dashboard_days"."subscribers" + excluded."subscribers",
      "cancelling" = "dashboard_days"."cancelling" + excluded."cancelling";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "users_rollup_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "dashboard_days" ("day", "slot", "signups", "callers", "subscribers", "cancelling")
    SELECT "r"."day", floor(random() * 16)::smallint, sum("r"."signups"), sum("r"."callers"),
      sum("r"."subscribers"), sum("r"."cancelling")
    FROM (SELECT * FROM "users_rollup_rows"(OLD, -1) UNION ALL SELECT * FROM "users_rollup_rows"(NEW, 1)) "r"
    GROUP BY "r"."day"
    HAVING sum("r"."signups") <> 0 OR sum("r"."callers") <> 0 OR sum("r"."subscribers") <> 0 OR sum("r"."cancelling") <> 0
    ON CONFLICT ("day", "slot") DO UPDATE SET "signups" = "dashboard_days"."signups" + excluded."signups",
      "callers" = "dashboard_days"."callers" + excluded."callers",
      "subscribers" = "dashboard_days"."subscribers" + excluded."subscribers",
      "cancelling" = "dashboard_days"."cancelling" + excluded."cancelling";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_rollup_insert" AFTER INSERT ON "users"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "users_rollup"('1');--> statement-breakpoint
CREATE TRIGGER "users_rollup_delete" AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "users_rollup"('-1');--> statement-breakpoint
CREATE TRIGGER "users_rollup_update" AFTER UPDATE OF "role", "created_at", "first_call_at", "subscribed_until" ON "users"
  FOR EACH ROW WHEN (
    OLD."role" IS DISTINCT FROM NEW."role" OR OLD."created_at" IS DISTINCT FROM NEW."created_at"
    OR (OLD."first_call_at" IS NULL) <> (NEW."first_call_at" IS NULL)
    OR OLD."subscribed_until" IS DISTINCT FROM NEW."subscribed_until"
  ) EXECUTE FUNCTION "users_rollup_update"();--> statement-breakpoint
-- payments: successful USD payments (the dashboard), and each kind's successful payments in any
-- currency (the transaction screens' Revenue Analytics), on the day of their transaction. A
-- payment's contributions, as one row of (day, sums):
CREATE FUNCTION "payments_rollup_rows"("p" "payments", "sign" int)
RETURNS TABLE ("day" date, "revenue_cents" bigint, "credits_minor" bigint, "subscription_minor" bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT "utc_day"(("p")."transaction_date"),
    "sign" * CASE WHEN ("p")."currency" = 'usd' THEN ("p")."amount_minor" ELSE 0 END::bigint,
    "sign" * CASE WHEN ("p")."kind" = 'credits' THEN ("p")."amount_minor" ELSE 0 END::bigint,
    "sign" * CASE WHEN ("p")."kind" = 'subscription' THEN ("p")."amount_minor" ELSE 0 END::bigint
  WHERE ("p")."status" = 'success'
$$;--> statement-breakpoint
CREATE FUNCTION "payments_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE "sign" int := TG_ARGV[0]::int;
BEGIN
  INSERT INTO "dashboard_days" ("day", "slot", "revenue_cents", "credits_revenue_minor", "subscription_revenue_minor")
    SELECT "r"."day", floor(random() * 16)::smallint, sum("r"."revenue_cents"), sum("r"."credits_minor"),
      sum("r"."subscription_minor")
    FROM "changed_rows" "c", "payments_rollup_rows"("c", "sign") "r" GROUP BY "r"."day"
    ON CONFLICT ("day", "slot") DO UPDATE SET "revenue_cents" = "dashboard_days"."revenue_cents" + excluded."revenue_cents",
      "credits_revenue_minor" = "dashboard_days"."credits_revenue_minor" + excluded."credits_revenue_minor",
      "subscription_revenue_minor" = "dashboard_days"."subscription_revenue_minor" + excluded."subscription_revenue_minor";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "payments_rollup_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "dashboard_days" ("day", "slot", "revenue_cents", "credits_revenue_minor", "subscription_revenue_minor")
    SELECT "r"."day", floor(random() * 16)::smallint, sum("r"."revenue_cents"), sum("r"."credits_minor"),
      sum("r"."subscription_minor")
    FROM (SELECT * FROM "payments_rollup_rows"(OLD, -1) UNION ALL SELECT * FROM "payments_rollup_rows"(NEW, 1)) "r"
    GROUP BY "r"."day"
    HAVING sum("r"."revenue_cents") <> 0 OR sum("r"."credits_minor") <> 0 OR sum("r"."subscription_minor") <> 0
    ON CONFLICT ("day", "slot") DO UPDATE SET "revenue_cents" = "dashboard_days"."revenue_cents" + excluded."revenue_cents",
      "credits_revenue_minor" = "dashboard_days"."credits_revenue_minor" + excluded."credits_revenue_minor",
      "subscription_revenue_minor" = "dashboard_days"."subscription_revenue_minor" + excluded."subscription_revenue_minor";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "payments_rollup_insert" AFTER INSERT ON "payments"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "payments_rollup"('1');--> statement-breakpoint
CREATE TRIGGER "payments_rollup_delete" AFTER DELETE ON "payments"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "payments_rollup"('-1');--> statement-breakpoint
CREATE TRIGGER "payments_rollup_update" AFTER UPDATE OF "kind", "status", "currency", "amount_minor", "transaction_date" ON "payments"
  FOR EACH ROW WHEN (
    OLD."kind" IS DISTINCT FROM NEW."kind" OR OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."currency" IS DISTINCT FROM NEW."currency" OR OLD."amount_minor" IS DISTINCT FROM NEW."amount_minor"
    OR OLD."transaction_date" IS DISTINCT FROM NEW."transaction_date"
  ) EXECUTE FUNCTION "payments_rollup_update"();--> statement-breakpoint
-- voice_calls: durations on the day the call started; a new call marks its user's first call, and
-- a call deleted or moved makes its user's first call read again.
CREATE FUNCTION "users_first_call_sync"("user_ids" uuid[]) RETURNS void LANGUAGE sql AS $$
  UPDATE "users" "u" SET "first_call_at" = (SELECT min("v"."started_at") FROM "voice_calls" "v" WHERE "v"."user_id" = "u"."id")
  WHERE "u"."id" = ANY("user_ids")
$$;--> statement-breakpoint
CREATE FUNCTION "voice_calls_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE "sign" int := TG_ARGV[0]::int;
BEGIN
  INSERT INTO "dashboard_days" ("day", "slot", "call_seconds")
    SELECT "utc_day"("started_at"), floor(random() * 16)::smallint, "sign" * sum("duration_seconds")
    FROM "changed_rows" GROUP BY 1 HAVING sum("duration_seconds") <> 0
    ON CONFLICT ("day", "slot") DO UPDATE SET "call_seconds" = "dashboard_days"."call_seconds" + excluded."call_seconds";
  IF "sign" > 0 THEN
    UPDATE "users" "u" SET "first_call_at" = "f"."first"
      FROM (SELECT "user_id", min("started_at") AS "first" FROM "changed_rows" GROUP BY "user_id") "f"
      WHERE "u"."id" = "f"."user_id" AND ("u"."first_call_at" IS NULL OR "u"."first_call_at" > "f"."first");
  ELSE
    PERFORM "users_first_call_sync"(ARRAY(SELECT DISTINCT "user_id" FROM "changed_rows"));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "voice_calls_rollup_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "dashboard_days" ("day", "slot", "call_seconds")
    SELECT "day", floor(random() * 16)::smallint, sum("seconds")
    FROM (VALUES ("utc_day"(OLD."started_at"), -OLD."duration_seconds"::bigint),
                 ("utc_day"(NEW."started_at"), NEW."duration_seconds"::bigint)) AS "change"("day", "seconds")
    GROUP BY "day" HAVING sum("seconds") <> 0
    ON CONFLICT ("day", "slot") DO UPDATE SET "call_seconds" = "dashboard_days"."call_seconds" + excluded."call_seconds";
  IF OLD."started_at" IS DISTINCT FROM NEW."started_at" OR OLD."user_id" IS DISTINCT FROM NEW."user_id" THEN
    PERFORM "users_first_call_sync"(ARRAY[OLD."user_id", NEW."user_id"]);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "voice_calls_rollup_insert" AFTER INSERT ON "voice_calls"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "voice_calls_rollup"('1');--> statement-breakpoint
CREATE TRIGGER "voice_calls_rollup_delete" AFTER DELETE ON "voice_calls"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "voice_calls_rollup"('-1');--> statement-breakpoint
CREATE TRIGGER "voice_calls_rollup_update" AFTER UPDATE OF "user_id", "started_at", "duration_seconds" ON "voice_calls"
  FOR EACH ROW WHEN (
    OLD."user_id" IS DISTINCT FROM NEW."user_id" OR OLD."started_at" IS DISTINCT FROM NEW."started_at"
    OR OLD."duration_seconds" IS DISTINCT FROM NEW."duration_seconds"
  ) EXECUTE FUNCTION "voice_calls_rollup_update"();--> statement-breakpoint
-- user_subscriptions: the user's subscribed_until follows their newest subscription.
CREATE FUNCTION "users_subscription_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" "u" SET "subscribed_until" = "c"."until"
    FROM (
      SELECT "ids"."user_id", (
        SELECT "subscribed_until_of"("s"."status", "s"."cancel_at_period_end", "s"."current_period_end")
        FROM "user_subscriptions" "s" WHERE "s"."user_id" = "ids"."user_id"
        ORDER BY "s"."created_at" DESC LIMIT 1
      ) AS "until"
      FROM (SELECT DISTINCT "user_id" FROM "changed_rows") "ids"
    ) "c"
    WHERE "u"."id" = "c"."user_id" AND "u"."subscribed_until" IS DISTINCT FROM "c"."until";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "user_subscriptions_sync_insert" AFTER INSERT ON "user_subscriptions"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "users_subscription_sync"();--> statement-breakpoint
CREATE TRIGGER "user_subscriptions_sync_update" AFTER UPDATE ON "user_subscriptions"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "users_subscription_sync"();--> statement-breakpoint
CREATE TRIGGER "user_subscriptions_sync_delete" AFTER DELETE ON "user_subscriptions"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "users_subscription_sync"();
