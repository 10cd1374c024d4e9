ALTER TABLE "dashboard_days" ADD COLUMN "credits_revenue_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "dashboard_days" ADD COLUMN "subscription_revenue_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written: the payments' part of the rollup now also keeps each kind's successful payments
-- in any currency (the transaction screens' Revenue Analytics), so those cards read the rollup
-- instead of every payment. A payment's contributions, as one row of (day, sums):
CREATE FUNCTION "payments_rollup_rows"("p" "payments", "sign" int)
RETURNS TABLE ("day" date, "revenue_cents" bigint, "credits_minor" bigint, "subscription_minor" bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT "utc_day"(("p")."transaction_date"),
    "sign" * CASE WHEN ("p")."currency" = 'usd' THEN ("p")."amount_minor" ELSE 0 END::bigint,
    "sign" * CASE WHEN ("p")."kind" = 'credits' THEN ("p")."amount_minor" ELSE 0 END::bigint,
    "sign" * CASE WHEN ("p")."kind" = 'subscription' THEN ("p")."amount_minor" ELSE 0 END::bigint
  WHERE ("p")."status" = 'success'
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "payments_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE OR REPLACE FUNCTION "payments_rollup_update"() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER "payments_rollup_update" ON "payments";--> statement-breakpoint
CREATE TRIGGER "payments_rollup_update" AFTER UPDATE OF "kind", "status", "currency", "amount_minor", "transaction_date" ON "payments"
  FOR EACH ROW WHEN (
    OLD."kind" IS DISTINCT FROM NEW."kind" OR OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."currency" IS DISTINCT FROM NEW."currency" OR OLD."amount_minor" IS DISTINCT FROM NEW."amount_minor"
    OR OLD."transaction_date" IS DISTINCT FROM NEW."transaction_date"
  ) EXECUTE FUNCTION "payments_rollup_update"();--> statement-breakpoint
-- The existing payments' sums of each kind, on slot 0 of their day.
INSERT INTO "dashboard_days" ("day", "slot", "credits_revenue_minor", "subscription_revenue_minor")
  SELECT "utc_day"("transaction_date"), 0,
    coalesce(sum("amount_minor") FILTER (WHERE "kind" = 'credits'), 0),
    coalesce(sum("amount_minor") FILTER (WHERE "kind" = 'subscription'), 0)
  FROM "payments" WHERE "status" = 'success' GROUP BY 1
  ON CONFLICT ("day", "slot") DO UPDATE SET
    "credits_revenue_minor" = "dashboard_days"."credits_revenue_minor" + excluded."credits_revenue_minor",
    "subscription_revenue_minor" = "dashboard_days"."subscription_revenue_minor" + excluded."subscription_revenue_minor";
